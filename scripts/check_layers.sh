#!/usr/bin/env bash
# Fails when a file includes a header from a layer its folder may not include. The layers are the
# table of docs/ARCHITECTURE.md (its "folder" and "may include" columns), read here, so the
# document and the check cannot disagree. A folder may always include its own headers; a file
# belongs to the longest folder of the table that its path starts with.
# Usage: scripts/check_layers.sh [SOURCE_DIR]   (ctest: architecture/layers)
set -euo pipefail
src=${1:-$(dirname "$0")/..}
cd "$src"
doc=docs/ARCHITECTURE.md

# "folder<TAB>allowed allowed ..." for each row of the table whose first cell is `folder/`.
rules=$(awk -F'|' '/^\| `[a-z_\/]+\/` \|/ {
  folder = $2; gsub(/[ `]/, "", folder)
  allowed = $5; gsub(/[`,]/, " ", allowed)
  print folder "\t" allowed }' "$doc")
[[ -n $rules ]] || { echo "check_layers: no layer table found in $doc" >&2; exit 2; }

folders=$(cut -f1 <<<"$rules" | awk '{ print length, $0 }' | sort -rn | cut -d' ' -f2-)
# The folder of the table that `path` lies in (the longest match), or nothing.
folder_of() {
  local f
  for f in $folders; do
    if [[ $1 == "$f"* ]]; then
      echo "$f"
      return
    fi
  done
  return 0
}

violations=0
checked=0
while IFS=$'\t' read -r folder allowed; do
  allowed=$(echo $allowed)
  # The files under this folder, but not those of a deeper folder of the table.
  while IFS= read -r file; do
    [[ $(folder_of "$file") == "$folder" ]] || continue
    checked=$((checked + 1))
    while IFS=: read -r line include; do
      target=$(folder_of "$include")
      # A header outside every folder of the table (the standard library, ai/, tests/...) is not
      # this check's to judge; top-level folders the table does not list are flagged below.
      if [[ -z $target ]]; then
        top=${include%%/*}/
        [[ -d $top && $top != "$include" ]] || continue
        target=$top
      fi
      [[ $target == "$folder" ]] && continue
      ok=0
      for a in $allowed; do [[ $target == "$a" ]] && ok=1; done
      if ((!ok)); then
        echo "$file:$line: includes \"$include\": $folder may include ${allowed:-nothing else} ($doc)"
        violations=$((violations + 1))
      fi
    done < <(grep -n -oE '^[[:space:]]*#[[:space:]]*include[[:space:]]+"[^"]+"' "$file" |
      sed -E 's/^([0-9]+):.*"([^"]+)"/\1:\2/')
  done < <(find "$folder" \( -name '*.h' -o -name '*.cpp' \) -type f | sort)
done <<<"$rules"

if ((violations)); then
  echo "check_layers: $violations include(s) against the layers of $doc" >&2
  exit 1
fi
echo "check_layers: $checked files follow the layers of $doc"
