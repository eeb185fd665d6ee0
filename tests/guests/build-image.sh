#!/bin/bash
# build-image.sh OUT [uml|qemu] - build the guests' root filesystem (a
# sparse raw ext4 file) from Debian packages only: mmdebstrap of bookworm
# with the packages in packages.list, a non-root user with passwordless
# sudo, and the identity unit (image/). The kernel is the flavour's:
#   uml   (default) the UML kernel's modules and config copied in; called by
#         `guests.sh image`;
#   qemu  Debian's own linux-image-amd64 installed by dpkg, as on a cloud VM
#         (modules, /boot/config-*, an initramfs made by initramfs-tools);
#         its kernel and initrd are also copied out to OUT.vmlinuz and
#         OUT.initrd for QEMU's -kernel/-initrd; called by
#         `qemu-guests.sh image`.
# The callers cache OUT under a hash of this recipe.
#
# Must run as root. The mirrors are GUESTS_MIRROR (default deb.debian.org).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$1
SIZE=${GUESTS_IMAGE_SIZE:-2G}
MIRROR=${GUESTS_MIRROR:-http://deb.debian.org/debian}
SECURITY=${GUESTS_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
LAB_USER=tcptune

die() {
	echo "build-image.sh: $*" >&2
	exit 1
}

FLAVOUR=${2:-uml}
KVER=
case $FLAVOUR in
uml)
	for d in /usr/lib/uml/modules/*; do
		[[ -d $d ]] && KVER=${d##*/} && break
	done
	[[ -n $KVER ]] || die "no /usr/lib/uml/modules/*: apt-get install user-mode-linux"
	ROOTDEV=/dev/ubda
	KPKG=
	HOOKS=()
	;;
qemu)
	ROOTDEV=/dev/vda
	KPKG=,linux-image-amd64
	# The initramfs holds only what finds the root disk (virtio, ext4):
	# Debian's default (MODULES=most: every storage and network driver,
	# 36 MB) takes minutes to unpack under QEMU's software emulation on a
	# busy machine. The kernel and the rest of the system are stock.
	# shellcheck disable=SC2016 # $1 is the root mmdebstrap hands the hook
	HOOKS=(--customize-hook='printf "%s\n" virtio_pci virtio_blk ext4 >>"$1/etc/initramfs-tools/modules"
		echo MODULES=list >"$1/etc/initramfs-tools/conf.d/tcptune-lab.conf"
		chroot "$1" update-initramfs -u -k all')
	;;
*) die "unknown flavour '$FLAVOUR' (uml or qemu)" ;;
esac
command -v mmdebstrap >/dev/null || die "no mmdebstrap: apt-get install mmdebstrap"
command -v mkfs.ext4 >/dev/null || die "no mkfs.ext4: apt-get install e2fsprogs"

ROOT=$(mktemp -d "${OUT%/*}/build.XXXXXX")
trap 'rm -rf "$ROOT" "$OUT.tmp" "$OUT.vmlinuz.tmp" "$OUT.initrd.tmp"' EXIT
chmod 0755 "$ROOT"

pkgs=$(grep -v '^[[:space:]]*\(#\|$\)' "$HERE/packages.list" | paste -sd, -)$KPKG
# stdin from /dev/null: mmdebstrap reads sources from a non-tty stdin.
mmdebstrap --variant=minbase --include="$pkgs" \
    --aptopt='Acquire::Languages "none"' \
    --dpkgopt='path-exclude=/usr/share/man/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' \
    --dpkgopt='path-exclude=/usr/share/doc/*' \
    "${HOOKS[@]}" \
    bookworm "$ROOT" \
    "deb $MIRROR bookworm main" \
    "deb $MIRROR bookworm-updates main" \
    "deb $SECURITY bookworm-security main" </dev/null

in_root() {
	chroot "$ROOT" "$@"
}

if [[ $FLAVOUR == uml ]]; then
	# The kernel's modules and its config where a Debian VM keeps them.
	mkdir -p "$ROOT/lib/modules" "$ROOT/boot"
	cp -a "/usr/lib/uml/modules/$KVER" "$ROOT/lib/modules/"
	in_root depmod "$KVER"
	zcat /usr/share/doc/user-mode-linux/config.gz >"$ROOT/boot/config-$KVER"
else
	# dpkg installed the kernel; QEMU boots it from outside the disk.
	for f in "$ROOT"/boot/vmlinuz-*; do
		[[ -f $f ]] && KVER=${f##*/vmlinuz-} && break
	done
	[[ -n $KVER && -f $ROOT/boot/initrd.img-$KVER ]] ||
		die "linux-image-amd64 left no /boot/vmlinuz-* and initrd.img-*"
	cp "$ROOT/boot/vmlinuz-$KVER" "$OUT.vmlinuz.tmp"
	cp "$ROOT/boot/initrd.img-$KVER" "$OUT.initrd.tmp"
fi

# SSH: host keys come from the controller at boot (identity unit); the
# ed25519 key is the only one a guest has.
rm -f "$ROOT"/etc/ssh/ssh_host_*
cat >"$ROOT/etc/ssh/sshd_config.d/tcptune-lab.conf" <<'CONF'
# tcptune guest lab: one host key, made on the controller before boot.
HostKey /etc/ssh/ssh_host_ed25519_key
CONF

# The non-root user: key login (its password '*' is no password at all,
# not a locked account), passwordless sudo.
in_root useradd -m -s /bin/bash "$LAB_USER"
in_root usermod -p '*' "$LAB_USER"
echo "$LAB_USER ALL=(ALL:ALL) NOPASSWD: ALL" >"$ROOT/etc/sudoers.d/$LAB_USER"
chmod 0440 "$ROOT/etc/sudoers.d/$LAB_USER"

install -m 0644 "$HERE/image/10-tcptune-eth0.link" "$ROOT/etc/systemd/network/"
install -D -m 0644 "$HERE/image/tcptune-lab-no-ra.conf" \
    "$ROOT/etc/systemd/network/90-eth0.network.d/tcptune-lab-no-ra.conf"
install -m 0755 "$HERE/image/tcptune-guest-identity" "$ROOT/usr/local/sbin/"
install -m 0644 "$HERE/image/tcptune-guest-identity.service" \
    "$ROOT/etc/systemd/system/"
in_root systemctl enable tcptune-guest-identity.service \
    systemd-networkd.service systemd-network-generator.service ssh.service
# The consoles go to a log on the controller; nothing to log in on.
in_root systemctl mask getty@tty1.service serial-getty@ttyS0.service

echo "$ROOTDEV / ext4 defaults,errors=remount-ro 0 1" >"$ROOT/etc/fstab"
echo debian >"$ROOT/etc/hostname"
printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' \
    >"$ROOT/etc/hosts"
rm -f "$ROOT/etc/resolv.conf"
: >"$ROOT/etc/machine-id"
rm -rf "$ROOT"/var/lib/apt/lists/* "$ROOT"/var/cache/apt/*.bin \
    "$ROOT"/var/cache/apt/archives/*.deb

rm -f "$OUT.tmp"
truncate -s "$SIZE" "$OUT.tmp"
mkfs.ext4 -q -F -L tcptune-guest -d "$ROOT" "$OUT.tmp"
if [[ $FLAVOUR == qemu ]]; then
	mv "$OUT.vmlinuz.tmp" "$OUT.vmlinuz"
	mv "$OUT.initrd.tmp" "$OUT.initrd"
fi
mv "$OUT.tmp" "$OUT"
echo "build-image.sh: $OUT ($(du -h --apparent-size "$OUT" | cut -f1) apparent, $(du -h "$OUT" | cut -f1) used)"
