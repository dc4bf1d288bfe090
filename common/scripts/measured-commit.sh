#!/bin/bash
# The code a run measures, for its metadata: HEAD (12 digits), and whether
# tracked files differed from it.  "unknown" outside a git checkout.
#   measured-commit.sh TOP
top=$1
commit=$(git -C "$top" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
if [ "$commit" != unknown ] && [ -n "$(git -C "$top" status --porcelain --untracked-files=no)" ]; then
	commit="$commit with uncommitted changes"
fi
echo "$commit"
