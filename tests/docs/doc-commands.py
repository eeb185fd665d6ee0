#!/usr/bin/env python3
"""Run every host-less tcptune command shown in README.md and docs/*.md.

A command is a line of a fenced code block that starts with `tcptune ` or
`$ tcptune ` (a trailing backslash continues it). Host-less commands need no
host: lint, inventory, size, modules, help, version, config, --help,
--version, and --list-hosts/--list-tasks. Each must exit 0, or the status a
trailing `# exit N` comment gives. When a `$ tcptune ...` line is followed in
its block by output lines (up to the next `$ ` line or the block's end), the
command's output must equal them (trailing blanks ignored; a line `...` or
`…` in the shown output matches any run of lines). So the documentation
cannot drift from what the binary does.

A block about a user's own project (a site.yml, a vault, /srv/ops) cannot
run here: its fence says so, ```` ```console illustrative ````, and is
skipped and counted.

usage: doc-commands.py TCPTUNE SOURCE_DIR
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile

HOSTLESS = {"lint", "inventory", "size", "modules", "help", "version",
            "config"}
LOOK = ("--list-hosts", "--list-tasks", "--help", "--version", "-h")


def blocks(path):
    """(first line number, info words, [lines]) of each fenced code block."""
    out, cur, start, info = [], None, 0, []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line.lstrip().startswith("```"):
                if cur is None:
                    cur, start = [], n + 1
                    info = line.lstrip()[3:].split()
                else:
                    out.append((start, info, cur))
                    cur = None
            elif cur is not None:
                cur.append(line)
    return out


def commands(start, lines):
    """(line number, command, expected status, shown output or None)."""
    i = 0
    while i < len(lines):
        raw = lines[i].strip()
        shown = raw.startswith("$ ")
        text = raw[2:] if shown else raw
        if not text.startswith("tcptune "):
            i += 1
            continue
        n = start + i
        while text.endswith("\\") and i + 1 < len(lines):
            i += 1
            text = text[:-1] + " " + lines[i].strip()
        i += 1
        output = None
        if shown:
            output = []
            while i < len(lines) and not lines[i].lstrip().startswith("$ "):
                output.append(lines[i])
                i += 1
            while output and output[-1].strip() == "":
                output.pop()
        yield n, text, output


def split_comment(text):
    """The command and the expected exit status of '... # exit N'."""
    lex = shlex.shlex(text, posix=True, punctuation_chars=True)
    lex.whitespace_split = True
    lex.commenters = ""
    words = []
    status = 0
    try:
        for w in lex:
            words.append(w)
    except ValueError as e:
        raise ValueError("cannot split: %s" % e)
    if "#" in words:
        k = words.index("#")
        comment = " ".join(words[k + 1:])
        m = re.match(r"exit (\d+)", comment)
        if m:
            status = int(m.group(1))
        words = words[:k]
    return words, status


def hostless(words):
    if any(w in ("|", ">", "<", "&&", ";") for w in words):
        return False
    if len(words) < 2:
        return False
    return words[1] in HOSTLESS or any(w in LOOK for w in words)


def matches(shown, got):
    """shown may hold '...' lines standing for any run of lines."""
    if not shown:
        return not got
    if shown[0].strip() in ("...", "…"):
        return any(matches(shown[1:], got[k:]) for k in range(len(got) + 1))
    return bool(got) and shown[0].rstrip() == got[0].rstrip() and \
        matches(shown[1:], got[1:])


def main():
    tcptune, src = sys.argv[1], sys.argv[2]
    files = [os.path.join(src, "README.md")] + sorted(
        os.path.join(src, "docs", f) for f in os.listdir(
            os.path.join(src, "docs")) if f.endswith(".md"))
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("ANSIBLE_", "TCPTUNE_"))}
    home = tempfile.mkdtemp(prefix="tcptune-doc-")
    env.update(HOME=home, NO_COLOR="1", LC_ALL="C.UTF-8")
    ran = failed = skipped = 0
    for path in files:
        rel = os.path.relpath(path, src)
        for start, info, lines in blocks(path):
            if "illustrative" in info:
                skipped += 1
                continue
            for n, text, shown in commands(start, lines):
                try:
                    words, status = split_comment(text)
                except ValueError as e:
                    print("%s:%d: %s" % (rel, n, e))
                    failed += 1
                    continue
                if not hostless(words):
                    continue
                ran += 1
                p = subprocess.run([tcptune] + words[1:], cwd=src, env=env,
                                   stdin=subprocess.DEVNULL,
                                   stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, timeout=60)
                got = p.stdout.decode("utf-8", "replace").splitlines()
                while got and got[-1].strip() == "":
                    got.pop()
                why = None
                if p.returncode != status:
                    why = "exit %d, expected %d" % (p.returncode, status)
                elif shown is not None and not matches(shown, got):
                    why = "output differs from the documentation"
                if why:
                    failed += 1
                    print("%s:%d: %s: %s" % (rel, n, " ".join(words), why))
                    print("  --- shown\n" + "\n".join(
                        "  " + s for s in (shown or [])))
                    print("  --- got\n" + "\n".join("  " + s for s in got))
    print("doc-commands: %d host-less commands run, %d failed; "
          "%d illustrative blocks skipped" % (ran, failed, skipped))
    if ran == 0:
        print("doc-commands: no command found: the extraction is broken")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
