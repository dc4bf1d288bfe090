#!/bin/bash
# Build the test kernel: Debian's linux-source-6.12 + every series listed in
# the top-level `series` file, configured from tinyconfig + fragments.
#
# Incremental by design: the tree is extracted once and kept as a git repo
# whose first commit is tagged `pristine`; on re-runs only patches that
# changed (and those after them) are re-applied, the .config is regenerated
# only when a fragment or the applied series changed, and ccache covers the
# rest.
#
# usage: kernel.sh tree|config|build|all
# FLAVOR=test (default): the test kernel, with common/kernel/debug.config
# (lockdep, PROVE_RCU, kmemleak...), in build/kbuild.  FLAVOR=bench: the same
# tree and fragments without debug.config, in build/kbuild-bench, for `make
# bench`.  FLAVOR=kasan: the test kernel plus common/kernel/kasan.config, in
# build/kbuild-kasan, for `make test-kasan`.
set -euo pipefail

TOP=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}
SRC=$BUILD/linux
FLAVOR=${FLAVOR:-test}
case "$FLAVOR" in
test)	OUT=$BUILD/kbuild ;;
bench)	OUT=$BUILD/kbuild-bench ;;
kasan)	OUT=$BUILD/kbuild-kasan ;;
*)	echo "kernel: FLAVOR must be test, bench or kasan" >&2; exit 2 ;;
esac
TARBALL=${TARBALL:-/usr/src/linux-source-6.12.tar.xz}
JOBS=${JOBS:-$(nproc)}
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
# Let clones in other folders (CI) hit the same cache: paths relative to
# the build dir, and the working directory not hashed.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$BUILD} CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
export GIT_COMMITTER_NAME=kbuild GIT_COMMITTER_EMAIL=kbuild@localhost
export GIT_AUTHOR_NAME=kbuild GIT_AUTHOR_EMAIL=kbuild@localhost

log() {
	if [ "$FLAVOR" = test ]; then echo "kernel: $*"; else echo "kernel ($FLAVOR): $*"; fi
}

# The patch files of every variant listed in `series`, in order, then the
# bench kernel's own (bench/patches: not part of any series).  The tree is
# shared by every flavor, so those are applied to it too, each behind a
# Kconfig option that only the bench flavor's fragment
# (bench/kernel-bench.config) turns on: the other kernels build none of it.
series_patches() {
	local dir p
	{ sed -e '/^[[:space:]]*#/d' -e '/^[[:space:]]*$/d' "$TOP/series"; echo bench; } |
	while read -r dir; do
		[ -f "$TOP/$dir/patches/series" ] || continue
		sed -e '/^[[:space:]]*#/d' -e '/^[[:space:]]*$/d' "$TOP/$dir/patches/series" |
		while read -r p; do
			echo "$TOP/$dir/patches/$p"
		done
	done
}

extract_tree() {
	[ -d "$SRC/.git" ] && git -C "$SRC" rev-parse -q --verify pristine >/dev/null && return
	[ -f "$TARBALL" ] || { echo "kernel: $TARBALL missing (make deps)" >&2; exit 1; }
	log "extracting $(basename "$TARBALL")"
	rm -rf "$SRC" "$BUILD/linux-source-6.12"
	mkdir -p "$BUILD"
	tar -xf "$TARBALL" -C "$BUILD"
	mv "$BUILD/linux-source-6.12" "$SRC"
	git -C "$SRC" init -q
	git -C "$SRC" config gc.auto 0
	git -C "$SRC" add -A -f  # Debian's .gitignore ignores the top level
	git -C "$SRC" commit -q -m "pristine $(basename "$TARBALL")"
	git -C "$SRC" tag pristine
}

# Re-apply only from the first patch whose content differs from what is
# applied, so untouched files keep their mtimes and make stays incremental.
apply_series() {
	local state="$SRC/.git/applied-series" want have i k=0 n
	want=$(series_patches | while read -r p; do
		echo "$(sha256sum < "$p" | cut -c1-16) $p"; done)
	have=$(cat "$state" 2>/dev/null || true)
	mapfile -t W <<<"$want"
	mapfile -t H <<<"$have"
	[ -z "$want" ] && W=()
	[ -z "$have" ] && H=()
	n=${#H[@]}
	while [ $k -lt ${#W[@]} ] && [ $k -lt $n ] && [ "${W[$k]}" = "${H[$k]}" ]; do
		k=$((k + 1))
	done
	if [ $k -eq $n ] && [ $k -eq ${#W[@]} ] &&
	   [ -z "$(git -C "$SRC" status --porcelain --untracked-files=no)" ]; then
		log "series up to date ($n patches)"
		return
	fi
	local base=pristine
	if [ $k -gt 0 ]; then
		base=$(git -C "$SRC" rev-list --reverse pristine..HEAD | sed -n "${k}p")
		[ -n "$base" ] || { base=pristine; k=0; }
	fi
	log "keeping $k applied patches, applying $(( ${#W[@]} - k ))"
	git -C "$SRC" am --abort >/dev/null 2>&1 || true
	git -C "$SRC" reset -q --hard "$base"
	: > "$state.tmp"
	for ((i = 0; i < k; i++)); do echo "${W[$i]}" >> "$state.tmp"; done
	for ((i = k; i < ${#W[@]}; i++)); do
		p=${W[$i]#* }
		log "  git am ${p#$TOP/}"
		git -C "$SRC" am -q "$p"
		echo "${W[$i]}" >> "$state.tmp"
	done
	mv "$state.tmp" "$state"
}

fragments() {
	case "$FLAVOR" in
	bench)	ls "$TOP"/common/kernel/*.config | grep -v -e '/debug\.config$' -e '/kasan\.config$' ;;
	test)	ls "$TOP"/common/kernel/*.config | grep -v '/kasan\.config$' ;;
	kasan)	ls "$TOP"/common/kernel/*.config ;;
	esac
	sed -e '/^[[:space:]]*#/d' -e '/^[[:space:]]*$/d' "$TOP/series" | while read -r dir; do
		[ -f "$TOP/$dir/kernel.config" ] && echo "$TOP/$dir/kernel.config"
		# Options only the tests need (memcg, audit...), kept out of
		# the bench kernel so that they do not change what it measures.
		[ "$FLAVOR" != bench ] && [ -f "$TOP/$dir/kernel-test.config" ] &&
			echo "$TOP/$dir/kernel-test.config"
	done
	# What runsc needs (gvisor/), in every kernel: the tests and the
	# runsc bench run it.
	echo "$TOP/gvisor/kernel.config"
	# The options of bench/patches, for the bench kernel only.
	[ "$FLAVOR" = bench ] && echo "$TOP/bench/kernel-bench.config"
	return 0
}

# Every fragment line must survive tinyconfig + olddefconfig: Kconfig drops
# options with unmet dependencies silently.
check_config() {
	local f line opt bad=0
	for f in $(fragments); do
		while read -r line; do
			case "$line" in
			CONFIG_*=*)
				grep -qxF "$line" "$OUT/.config" && continue
				echo "kernel: ${f#$TOP/}: '$line' did not survive into .config (missing dependency?)" >&2
				bad=1 ;;
			"# CONFIG_"*" is not set")
				opt=${line#\# }; opt=${opt%% *}
				grep -q "^$opt=[ym]" "$OUT/.config" || continue
				echo "kernel: ${f#$TOP/}: $opt should be off" >&2
				bad=1 ;;
			esac
		done < "$f"
	done
	return $bad
}

configure() {
	local stamp="$OUT/.fragments-stamp" sum
	sum=$( (git -C "$SRC" rev-parse HEAD; cat $(fragments)) | sha256sum)
	if [ -f "$OUT/.config" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$sum" ]; then
		return
	fi
	log "configuring (tinyconfig + $(fragments | sed "s|$TOP/||" | tr '\n' ' '))"
	mkdir -p "$OUT"
	make -s -C "$SRC" O="$OUT" tinyconfig >/dev/null
	(cd "$SRC" && scripts/kconfig/merge_config.sh -m -O "$OUT" "$OUT/.config" $(fragments)) >/dev/null
	make -s -C "$SRC" O="$OUT" olddefconfig >/dev/null
	check_config
	echo "$sum" > "$stamp"
}

# Kbuild's quiet lines ("  CC      kernel/fork.o") become one line a minute:
# steps done, objects in the tree against those of the last full build (a
# cold build takes 10-20 minutes on 2 cores).  Anything else (warnings,
# errors) passes through.
progress() {
	local n=0 last=$SECONDS line
	while IFS= read -r line; do
		case "$line" in
		"  "[A-Z]*)
			n=$((n + 1))
			if [ $((SECONDS - last)) -ge 60 ]; then
				last=$SECONDS
				log "  $((SECONDS / 60)) min: $n build steps, $(find "$OUT" -name '*.o' | wc -l)${expected:+ of about $expected} objects"
			fi ;;
		*)	printf '%s\n' "$line" ;;
		esac
	done
}

build() {
	local expected
	expected=$(cat "$OUT/.objects" 2>/dev/null || true)
	log "make bzImage (-j$JOBS, ccache): a progress line a minute"
	SECONDS=0
	make --no-print-directory -C "$SRC" O="$OUT" -j"$JOBS" CC="ccache gcc" HOSTCC="ccache gcc" \
		KBUILD_BUILD_TIMESTAMP="" KBUILD_BUILD_USER=kvm-hc KBUILD_BUILD_HOST=qemu \
		bzImage 2>&1 | expected=$expected progress
	find "$OUT" -name '*.o' | wc -l > "$OUT/.objects"
	make -s -C "$SRC" O="$OUT" headers_install >/dev/null
	ls -l "$OUT/arch/x86/boot/bzImage" | awk '{print "kernel: " $NF " " $5 " bytes"}'
}

case "${1:-all}" in
tree)	extract_tree; apply_series ;;
config)	extract_tree; apply_series; configure ;;
build|all) extract_tree; apply_series; configure; build ;;
check)	check_config ;;
*)	echo "usage: $0 tree|config|build|all" >&2; exit 2 ;;
esac
