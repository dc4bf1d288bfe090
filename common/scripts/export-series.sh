#!/bin/bash
# Regenerate FOLDER/patches from a branch of the kernel tree: the patches
# are the source of truth, the branch is where they are edited.
#   export-series.sh FOLDER BASE BRANCH
# FOLDER/cover.txt holds the cover letter: its first line is the subject,
# the rest the body; git format-patch adds the shortlog and diffstat.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
folder=$1 base=$2 branch=$3
SRC=${SRC:-$TOP/build/linux}
out=$TOP/$folder/patches
cover=$TOP/$folder/cover.txt

rm -f "$out"/*.patch
# The cover letter is from the series' author, not whoever runs this.
GIT_AUTHOR_NAME=$(git -C "$SRC" log -1 --format=%an "$branch")
GIT_AUTHOR_EMAIL=$(git -C "$SRC" log -1 --format=%ae "$branch")
GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL
git -C "$SRC" format-patch -q --cover-letter --no-signature --zero-commit \
	-o "$out" "$base..$branch"
# The cover letter gets the date of the series' last commit, not the time
# of the export, so that re-exporting an unchanged series changes nothing.
date=$(git -C "$SRC" log -1 --format=%aD "$branch")
python3 - "$out"/0000-cover-letter.patch "$cover" "$date" <<'PY'
import re
import sys
path, cover, date = sys.argv[1], sys.argv[2], sys.argv[3]
text = open(path).read()
text = re.sub(r'^Date: .*$', 'Date: ' + date, text, count=1, flags=re.M)
lines = open(cover).read().rstrip('\n').split('\n')
subject, body = lines[0], '\n'.join(lines[1:]).strip('\n')
text = text.replace('*** SUBJECT HERE ***', subject)
text = text.replace('*** BLURB HERE ***', body)
open(path, 'w').write(text)
PY
(cd "$out" && ls *.patch | grep -v '^0000-') > "$out/series"
echo "export: $(wc -l < "$out/series") patches + cover letter in ${out#$TOP/}"
