#!/bin/sh
# Builds the upgrade test's fixture (apps/server/test/fixtures/previous-release/): a database made
# by the previous release's own code, kept as a Fray backup of that database (its schema is the
# release's migrations, listed in the backup's header), with each encounter's version and state
# hash as that release had them. Usage, from the repository root:
#   sh scripts/upgrade-fixture/make.sh [commit]        (default: 8fa8556, the last release)
# It borrows this checkout's node_modules (no install) and needs no network.
set -eu
release=${1:-8fa8556}
root=$(pwd)
out="$root/apps/server/test/fixtures/previous-release"
work=$(mktemp -d)
trap 'git -C "$root" worktree remove --force "$work/src" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
git -C "$root" worktree add --detach "$work/src" "$release" >/dev/null
old="$work/src"
# the release's own workspace packages, every other dependency from this checkout
mkdir -p "$old/node_modules/@fray"
for entry in "$root"/node_modules/* "$root"/node_modules/.bin; do
  name=$(basename "$entry")
  [ "$name" = "@fray" ] || ln -s "$entry" "$old/node_modules/$name"
done
for pkg in "$old"/packages/* "$old"/apps/*; do
  [ -f "$pkg/package.json" ] || continue
  ln -s "$pkg" "$old/node_modules/@fray/$(basename "$pkg")"
  [ -d "$root/${pkg#"$old"/}/node_modules" ] && ln -s "$root/${pkg#"$old"/}/node_modules" "$pkg/node_modules"
done
(cd "$old/packages/store" && node scripts/generate.mjs >/dev/null)
cp "$root/scripts/upgrade-fixture/make-data.ts" "$old/make-data.ts"
mkdir -p "$out"
rm -f "$out/database.jsonl"
(cd "$old" && FIXTURE_RELEASE="$release" FIXTURE_DATA_DIR="$work/db" FIXTURE_EXPECTED="$out/expected.json" \
  node --conditions=@fray/source --import tsx make-data.ts)
FIXTURE_DATA_DIR="$work/db" FIXTURE_FILE="$out/database.jsonl" \
  node --conditions=@fray/source --import tsx "$root/scripts/upgrade-fixture/dump.ts"
echo "fixture written to $out"
