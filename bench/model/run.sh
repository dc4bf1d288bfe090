#!/bin/bash
# The cost model on the bench's results (make bench, after the profile):
# bench/model/model.py, its tables appended to latest.md.
#   run.sh RESULTS_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$1
if [ ! -f "$out/latest.json" ] || [ ! -f "$out/latest-profile.json" ]; then
	echo "model: not run: $out has no latest.json or latest-profile.json"
	exit 0
fi
echo
python3 "$here/model.py" "$here/constants.json" "$here/published.json" \
	"$out/latest.json" "$out/latest-profile.json" "$out"
{ echo; sed 's/^#/##/' "$out/latest-model.md"; } >> "$out/latest.md"
