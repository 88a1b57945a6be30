#!/usr/bin/env bash
# The SchemaCheck action's work (action.yml): install the CLI, expand the file patterns, run
# `schemacheck validate` once for the annotations and once for the JUnit report, and record the
# exit status and report path as step outputs. It never fails the step itself, so that the
# artifact upload after it still runs; action.yml's last step turns the status into a failure.
# Runs as is outside GitHub too (packages/cli/test/action.test.ts): every GitHub variable it reads
# has a fallback.
set -euo pipefail

action_path="${GITHUB_ACTION_PATH:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
output="${GITHUB_OUTPUT:-/dev/null}"
temp="${RUNNER_TEMP:-$(mktemp -d)}"
cd "${GITHUB_WORKSPACE:-.}"

fail() {
  echo "::error title=SchemaCheck::$1"
  echo "exit-code=2" >>"$output"
  exit 0
}

[ -n "${INPUT_FILES:-}" ] || fail "the files input is empty"
[ -n "${INPUT_SCHEMA:-}" ] || fail "the schema input is empty"
[ -f "$INPUT_SCHEMA" ] || fail "schema file not found: $INPUT_SCHEMA"

# Patterns are split on white space and expanded by bash (** crosses folders). A pattern that
# matches nothing is an error rather than silently checking less than the user asked for.
# `read` splits without globbing, so each pattern is expanded (and checked) on its own.
read -r -d '' -a patterns <<<"$INPUT_FILES" || true
shopt -s globstar nullglob
files=()
for pattern in "${patterns[@]}"; do
  matches=($pattern)
  [ ${#matches[@]} -gt 0 ] || fail "no file matches $pattern"
  files+=("${matches[@]}")
done
shopt -u globstar nullglob
[ ${#files[@]} -gt 0 ] || fail "the files input names no file"

# The CLI this action was released with, unless the workflow names another version or a tarball.
spec="${INPUT_CLI:-}"
if [ -z "$spec" ]; then
  version="$(node -p 'require(process.argv[1]).version' "$action_path/packages/cli/package.json")"
  spec="schemacheck@$version"
fi
cli_dir="$temp/schemacheck-cli"
mkdir -p "$cli_dir"
echo "::group::Install $spec"
npm install --prefix "$cli_dir" --no-save --no-package-lock --no-audit --no-fund --loglevel=error "$spec"
echo "::endgroup::"
bin="$cli_dir/node_modules/.bin/schemacheck"

args=(validate "${files[@]}" --schema "$INPUT_SCHEMA")
[ -z "${INPUT_SCHEMA_FORMAT:-}" ] || args+=(--schema-format "$INPUT_SCHEMA_FORMAT")
# Extra options are split on white space, as a user writes them on a command line.
# shellcheck disable=SC2206
[ -z "${INPUT_ARGS:-}" ] || args+=($INPUT_ARGS)

status=0
"$bin" "${args[@]}" --format github || status=$?

junit="${INPUT_JUNIT_FILE:-schemacheck-junit.xml}"
mkdir -p "$(dirname "$junit")"
# A second run for the report: the files are read again, which costs little next to the install.
"$bin" "${args[@]}" --format junit >"$junit" || true

if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  case "$status" in
    0) verdict="✓ every file is valid" ;;
    1) verdict="✗ a file has errors (annotations on the files; JUnit report: \`$junit\`)" ;;
    *) verdict="✗ schemacheck could not check the files (exit status $status)" ;;
  esac
  echo "**SchemaCheck**: ${#files[@]} file(s) against \`$INPUT_SCHEMA\`: $verdict" >>"$GITHUB_STEP_SUMMARY"
fi

{
  echo "exit-code=$status"
  echo "junit-file=$junit"
} >>"$output"
