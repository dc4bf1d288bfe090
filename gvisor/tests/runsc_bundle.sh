# Sourced, not run: the bundle runsc_test and /bench/runsc run programs
# from (both reach /gvisor; both set RUNSC).
#   runsc_bundle DIR PROGRAM ARGS...
# DIR/config.json runs PROGRAM ARGS in a sandbox whose root is the guest's
# / and whose network namespace is the guest's own: `runsc do` would give
# it a namespace of its own (a veth pair, or with no default route one
# whose loopback is down), where 127.0.0.1 is not the guest's.
runsc_bundle() {
	local dir=$1
	shift
	mkdir -p "$dir" && rm -f "$dir/config.json"
	(cd "$dir" && $RUNSC spec --netns /proc/1/ns/net -- "$@") &&
		sed -i 's|"path": "rootfs"|"path": "/"|' "$dir/config.json"
}
