#!/bin/bash
# Build runsc from Debian's gVisor source with this project's patches:
#   build.sh OUTDIR
# The pristine tree is what golang-gvisor-gvisor-dev installs (gVisor's
# snapshot of 2022-12-19, the posting's era), copied to
# OUTDIR/gopath/src/gvisor.dev/gvisor as a git repository whose first
# commit is the package's tree; gvisor/patches/series is applied with git
# am, the VDSO is linked from the tree's sources (the package ships a
# one-byte placeholder), and runsc is built with Debian's Go 1.19 in GOPATH
# mode against the packaged dependencies (/usr/share/gocode), its build
# cache in OUTDIR/gocache.  Writes OUTDIR/bin/runsc.  Rebuilds the tree only
# when a patch changed; Go's cache makes a relink take seconds.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(mkdir -p "$1/bin" && cd "$1" && pwd)
pristine=/usr/share/gocode/src/gvisor.dev/gvisor
tree=$out/gopath/src/gvisor.dev/gvisor
go=/usr/lib/go-1.19/bin/go
log() { echo "gvisor: $*"; }

for f in "$pristine/runsc/main.go" "$go"; do
	[ -e "$f" ] || { log "$f missing (golang-gvisor-gvisor-dev, golang-1.19-go: common/scripts/deps.sh)" >&2; exit 1; }
done

# The series, in order; its checksum decides whether the tree is current.
patches=$(sed -e '/^[[:space:]]*#/d' -e '/^[[:space:]]*$/d' "$here/patches/series")
version=$(dpkg-query -W -f='${Version}' golang-gvisor-gvisor-dev)
sum=$( (cd "$here/patches" && cat $patches; printf %s "$version") | sha1sum | cut -d' ' -f1)
if [ "$(cat "$out/tree.sum" 2>/dev/null)" != "$sum" ]; then
	log "tree: Debian's source $version + $(echo "$patches" | wc -l) patches"
	rm -rf "$tree" "$out/tree.sum"
	mkdir -p "$tree"
	cp -a "$pristine/." "$tree/"
	git -C "$tree" init -q
	git -C "$tree" add -A
	# A fixed identity and date: the same package gives the same commit,
	# the series' base-commit, on every machine.
	GIT_AUTHOR_DATE='2023-01-04 00:00:00 +0000' GIT_COMMITTER_DATE='2023-01-04 00:00:00 +0000' \
		git -C "$tree" -c user.name=Debian -c user.email=debian@localhost \
		commit -q -m "golang-gvisor-gvisor-dev $version"
	git -C "$tree" tag pristine
	for p in $patches; do
		git -C "$tree" -c user.name=build -c user.email=build@localhost \
			am -q --committer-date-is-author-date "$here/patches/$p" ||
			{ log "$p does not apply" >&2; exit 1; }
	done
	echo "$sum" > "$out/tree.sum"
fi

# The VDSO, linked with the series' linker script (as Bazel's cc_vdso would).
vdso=$tree/pkg/sentry/loader/vdsodata/vdso.so
if [ ! -s "$vdso" ] || [ "$(stat -c %s "$vdso")" -lt 100 ] ||
   [ "$tree/vdso/vdso_amd64.lds" -nt "$vdso" ]; then
	log "vdso: linking vdso/*.cc with vdso/vdso_amd64.lds"
	(cd "$tree" && g++ -std=c++17 -O2 -fPIC -fno-stack-protector -fno-exceptions \
		-fno-rtti -fomit-frame-pointer -fno-builtin -I. -nostdlib -shared \
		-Wl,-T,vdso/vdso_amd64.lds -Wl,-soname=linux-vdso.so.1 -Wl,--hash-style=both \
		-Wl,--no-undefined -Wl,-Bsymbolic -Wl,--build-id=none \
		-o "$vdso.tmp" vdso/vdso.cc vdso/vdso_time.cc)
	if readelf -r "$vdso.tmp" | grep -q 'Relocation section'; then
		log "vdso: the image has relocations; the loader cannot take it" >&2
		exit 1
	fi
	mv "$vdso.tmp" "$vdso"
fi

log "go build runsc (Go $("$go" env GOVERSION), GOPATH mode)"
mkdir -p "$out/gocache"
(cd "$tree" && GO111MODULE=off GOPATH="$out/gopath:/usr/share/gocode" \
	GOCACHE="$out/gocache" GOFLAGS= CGO_ENABLED=0 \
	"$go" build -trimpath -o "$out/bin/runsc.tmp" gvisor.dev/gvisor/runsc)
mv "$out/bin/runsc.tmp" "$out/bin/runsc"
log "$out/bin/runsc: $(stat -c %s "$out/bin/runsc") bytes"
