#!/bin/bash
# Check each series the way a maintainer would before applying it:
#   - checkpatch --strict on every patch (errors fail; warnings are shown
#     and must be justified in the folder's README),
#   - the stack applies to the pristine tree and each patch builds: at every
#     commit, the objects of the C files it touches are compiled with the
#     test kernel's .config (olddefconfig'd for that commit), with -Werror;
#   - with LINK=1, vmlinux is also built and linked at every commit.  That
#     is a full kernel build in a directory of its own, then one relink per
#     patch: about half an hour on 2 cores, too long for every `make test`,
#     so it is asked for (`make check-series LINK=1`).
# Uses a separate worktree and output dir, so the test kernel is untouched.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}
SRC=$BUILD/linux
OUT=$BUILD/kbuild
WT=$BUILD/series-check
KCHK=$BUILD/kcheck
JOBS=${JOBS:-$(nproc)}
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
export GIT_COMMITTER_NAME=kbuild GIT_COMMITTER_EMAIL=kbuild@localhost
fail=0

[ -f "$OUT/.config" ] || { echo "check-series: run 'make kernel' first" >&2; exit 1; }

# The series, then the bench kernel's own patches (bench/patches), which
# must apply on top of them and build with their option on.
DIRS="$(sed -e '/^[[:space:]]*#/d' -e '/^[[:space:]]*$/d' "$TOP/series") bench"

echo "check-series: checkpatch --strict"
for dir in $DIRS; do
	for p in $(cat "$TOP/$dir/patches/series"); do
		# Run from the kernel tree: given a path inside a git repo,
		# checkpatch would take the patch for a source file.
		out=$(cd "$SRC" && scripts/checkpatch.pl --strict -q - \
			< "$TOP/$dir/patches/$p" 2>&1 || true)
		e=$(grep -c '^ERROR' <<<"$out" || true)
		w=$(grep -c '^WARNING' <<<"$out" || true)
		c=$(grep -c '^CHECK' <<<"$out" || true)
		grep -q '^Signed-off-by:' "$TOP/$dir/patches/$p" || e=$((e + 1))
		printf '  %-70s %s errors, %s warnings, %s checks\n' "$dir/${p:0:60}" "$e" "$w" "$c"
		[ "$e" = 0 ] || { echo "$out" | grep -A4 '^ERROR'; fail=1; }
	done
done

echo "check-series: build at every patch"
git -C "$SRC" worktree remove --force "$WT" 2>/dev/null || rm -rf "$WT"
git -C "$SRC" worktree prune
git -C "$SRC" worktree add -q --detach "$WT" pristine
mkdir -p "$KCHK"
for dir in $DIRS; do
	for p in $(cat "$TOP/$dir/patches/series"); do
		if ! git -C "$WT" am -q "$TOP/$dir/patches/$p"; then
			echo "  $dir/$p: does not apply"
			fail=1
			break 2
		fi
		objs=$(git -C "$WT" diff --name-only HEAD~1 HEAD -- '*.c' |
			grep -v '^tools/\|^samples/\|^Documentation/' | sed 's/\.c$/.o/' || true)
		cp "$OUT/.config" "$KCHK/.config"
		if [ "$dir" = bench ]; then
			for opt in $(sed -n 's/^CONFIG_\(.*\)=y$/\1/p' "$TOP/bench/kernel-bench.config"); do
				"$WT/scripts/config" --file "$KCHK/.config" --enable "$opt"
			done
		fi
		make -s -C "$WT" O="$KCHK" olddefconfig >/dev/null
		if [ -z "$objs" ]; then
			echo "  $dir/$p: applies (no C files)"
		elif log=$(make -s -C "$WT" O="$KCHK" -j"$JOBS" CC="ccache gcc" \
				HOSTCC="ccache gcc" KCFLAGS=-Werror $objs 2>&1); then
			echo "  $dir/$p: applies, builds:" $objs
		else
			echo "  $dir/$p: applies, FAILS to build"
			echo "$log" | tail -20
			fail=1
		fi
		if [ "${LINK:-0}" = 1 ]; then
			if log=$(make -s -C "$WT" O="$KCHK" -j"$JOBS" CC="ccache gcc" \
					HOSTCC="ccache gcc" vmlinux 2>&1); then
				echo "  $dir/$p: vmlinux links"
			else
				echo "  $dir/$p: vmlinux FAILS to link"
				echo "$log" | tail -20
				fail=1
			fi
		fi
	done
done
# The whole stack without the option: what KVM reports and accepts then is
# a constant (KVM_PV_HOST_SYSCALL_SUPPORTED is 0), and every guarded path
# must still build.
if [ $fail = 0 ]; then
	echo "check-series: the stack with CONFIG_KVM_PV_HOST_SYSCALL=n"
	cp "$OUT/.config" "$KCHK/.config"
	"$WT/scripts/config" --file "$KCHK/.config" --disable KVM_PV_HOST_SYSCALL
	make -s -C "$WT" O="$KCHK" olddefconfig >/dev/null
	objs="arch/x86/kvm/x86.o arch/x86/kvm/cpuid.o virt/kvm/kvm_main.o"
	if grep -q '^CONFIG_KVM_PV_HOST_SYSCALL=y' "$KCHK/.config"; then
		echo "  could not turn the option off"; fail=1
	elif log=$(make -s -C "$WT" O="$KCHK" -j"$JOBS" CC="ccache gcc" \
			HOSTCC="ccache gcc" KCFLAGS=-Werror $objs 2>&1); then
		echo "  builds:" $objs
	else
		echo "  FAILS to build"; echo "$log" | tail -20; fail=1
	fi
fi
git -C "$SRC" worktree remove --force "$WT"
[ $fail = 0 ] && echo "check-series: ok" || echo "check-series: FAILED"
exit $fail
