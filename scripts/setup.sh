#!/usr/bin/env bash
# Install everything tcptune needs to build, test and run its lab, from
# Debian's packages. Idempotent; run as root on Debian 12 / Ubuntu 22.04+.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/as-root.sh
. scripts/as-root.sh
as_root "it installs packages with apt-get" "$@"
export DEBIAN_FRONTEND=noninteractive
packages=(
	build-essential cmake pkg-config
	libssh-dev libyaml-dev libcurl4-openssl-dev libjansson-dev libcmocka-dev
	libpcre2-dev
	openssh-server openssh-client iproute2 iputils-ping ethtool kmod procps
	sudo iperf3 jq socat netcat-openbsd openssl time ansible-core
	# the Ansible-compatibility tests: ansible.posix (sysctl) is in 'ansible'
	ansible
	# the trust-boundary tier: libFuzzer harnesses (clang), shellcheck of the
	# remote scripts, and the scripts run under dash as on Debian hosts
	clang libclang-rt-14-dev shellcheck dash
	# the real-kernel tier: User-mode Linux guests (tests/guests/), and QEMU
	# guests with Debian's own kernel on a multiqueue NIC (qemu-guests.sh)
	user-mode-linux mmdebstrap qemu-system-x86 qemu-utils
	# the .deb and its test (scripts/package-test.sh: CPack's shlibdeps,
	# man -w), the man page lint (groff -ww), the completion tests
	dpkg-dev man-db groff-base bash-completion zsh
	# the path matrix's HTML report rendered headless (e2e/verify-matrix)
	chromium
)
missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
	echo "setup.sh: installing ${missing[*]}"
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# The Debian iperf3 package may install a daemon; the lab starts its own.
