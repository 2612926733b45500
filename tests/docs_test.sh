#!/bin/sh
# docs_test.sh SOURCE_DIR: the docs hold to their own rules. Dated and
# measured figures (and the commits they were measured on) live in
# docs/results/ only (the topic docs and README explain, and link
# there); no doc speaks of how the work on the project was organised
# (sessions, helpers, lent machines) or cites issue numbers; every relative link in README.md and
# docs/ names a file or folder that exists, and a #anchor into a Markdown
# file names one of its headings.
set -u
src=${1:-.}
cd "$src" || { echo "FAIL: no $src"; exit 1; }
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
bad=0
fail() { echo "FAIL: $*"; bad=1; }

# Dates (YYYY-MM-DD) outside docs/results/.
for f in README.md docs/*.md; do
  hits=$(grep -nE '(^|[^0-9])20[0-9]{2}-[01][0-9]-[0-3][0-9]([^0-9]|$)' "$f")
  [ -z "$hits" ] || fail "a date outside docs/results/, in $f: $hits"
done

# Measured figures outside docs/results/: commit hashes (what a run was
# made on), times and rates with decimals, and ranges of measured ratios
# (a rule's own factor is one number).
for f in README.md docs/*.md; do
  hits=$(grep -nE '(^|[^0-9A-Za-z_])[0-9a-f]*([0-9][0-9a-f]*[a-f]|[a-f][0-9a-f]*[0-9])[0-9a-f]*([^0-9A-Za-z_]|$)' "$f" |
    grep -E '(^|[^0-9A-Za-z_])[0-9a-f]{7,40}([^0-9A-Za-z_]|$)' | grep -vE '0x[0-9a-f]{7,}')
  [ -z "$hits" ] || fail "a commit hash outside docs/results/, in $f: $hits"
  # (A bound a rule sets, "≥ 0.1 ms", is no measurement.)
  hits=$(grep -n '' "$f" | sed -E 's/(≥|≤|<|>|~) ?[0-9]+\.[0-9]+ ?(ms|µs|us|ns)//g' |
    grep -E '[0-9]\.[0-9]+ ?(ms|µs|us|ns|GB/s|GiB/s|MB/s|GFLOP/s|TFLOP/s)([^A-Za-z0-9]|$)|[0-9]\.[0-9]+ ?[–-] ?[0-9]+(\.[0-9]+)? ?[×x]([^A-Za-z0-9]|$)')
  [ -z "$hits" ] || fail "a measured figure outside docs/results/, in $f: $hits"
done

# The project speaks of itself only.
words=$(grep -rniE '\bsessions?\b|\bhelpers?\b|\blent\b|nvidia-h[0-9]+' README.md docs --include='*.md')
[ -z "$words" ] || fail "words about how the work was done: $words"

# Issue numbers: the docs say what holds, not which request asked for it.
cited=$(grep -rniE '\bissues? #?[0-9]+' README.md docs tests/fuzz/README.md examples/README.md --include='*.md')
[ -z "$cited" ] || fail "issue numbers cited: $cited"

# Relative links: [text](target) in README.md and docs/**/*.md.
slug() {  # a heading as GitHub's anchor: lower case, punctuation dropped, spaces to hyphens
  LC_ALL=C sed -E 's/^#+ +//; s/[A-Z]/\L&/g; s/[^a-z0-9 _-]//g; s/ /-/g'
}
for f in README.md $(find docs -name '*.md' | sort); do
  dir=$(dirname "$f")
  grep -oE '\]\([^) ]+\)' "$f" | sed -E 's/^\]\(//; s/\)$//' | while read -r link; do
    case $link in
      http://*|https://*|mailto:*) continue ;;
    esac
    path=${link%%#*}
    anchor=
    case $link in *'#'*) anchor=${link#*#} ;; esac
    if [ -z "$path" ]; then target=$f; else target=$dir/$path; fi
    if [ ! -e "$target" ]; then
      echo "FAIL: $f links to $link: no $target"
      continue
    fi
    if [ -n "$anchor" ] && [ -f "$target" ]; then
      case $target in *.md) ;; *) continue ;; esac
      grep -E '^#{1,6} ' "$target" | slug | grep -qx -- "$anchor" ||
        echo "FAIL: $f links to $link: no heading #$anchor in $target"
    fi
  done
done > "$tmp"
if [ -s "$tmp" ]; then cat "$tmp"; bad=1; fi

[ $bad = 0 ] && echo PASS
exit $bad
