#!/usr/bin/env bash
# Lists every unsafe token in the library's sources by file, and fails when one stands outside the owner
# files (issue 28: one owner per unsafe concern, each opening with its invariants). Lists every
# `@inline(__always)` by file too, and fails when a file holds more than its budget below.
#
# Usage: Scripts/unsafe-audit.sh [--only DIR]... [--report] [--self-test]
#   --only DIR   audit only the Swift files under DIR (repeatable; default: Sources)
#   --report     list the tokens and the verdict, but exit 0 whatever it is
#   --self-test  check the audit itself on a temporary tree: a token outside an owner must fail, the same
#                token in a comment or in an owner file must pass; `@inline(__always)` in a file without a
#                budget, or over its budget, must fail, and within its budget or in a comment must pass;
#                exits non-zero when the audit is wrong
#
# The tokens: Unsafe*Pointer, Unmanaged, unsafeBitCast, unsafeDowncast, @exclusivity(unchecked),
# _withUnsafeGuaranteedRef, unowned(unsafe), .allocate(, withUnsafe*, nonisolated(unsafe), _isPOD (which
# tells when a value's bytes may be read as bits: only the code that then reads them should ask). Comments
# (`//`, `///`, `/* */`) are not counted. `@unchecked Sendable` is listed apart and never fails the audit: it
# is allowed where a lock or a serial queue guards the state and a comment says what it guards.
#
# `@inline(__always)` is not unsafe, but it overrides the optimizer, and the project's rule is that each one
# is earned by a benchmark (STYLE.md: "only where the benchmark shows a gain"). So each file has a budget,
# written below: the count it holds now. A file outside the list may hold none, a file in it no more than its
# budget. Raising a budget, or adding a file, is an edit of this script that a reviewer sees, with the
# instruction counts that earned it in the commit; lowering one when uses go is welcome.
set -euo pipefail
cd "$(dirname "$0")/.."

# The owner files, relative to the package root. Anything else holding a token fails the audit.
owners=(
    Sources/SQLiteRecord/Core/SQLiteCallbacks.swift
    Sources/SQLiteRecord/Core/ByteView.swift
    Sources/SQLiteRecord/Core/SameTypeCast.swift
    # The decoder's reused memory, one file per concern: key identity (a key's raw bytes), key trails, row
    # states, kept contexts (read unretained per row), row-initializer calls, kept keyed containers.
    Sources/SQLiteRecord/Coding/KeyIdentity.swift
    Sources/SQLiteRecord/Coding/KeyTrail.swift
    Sources/SQLiteRecord/Coding/RowDecodingState.swift
    Sources/SQLiteRecord/Coding/RowDecoder+KeptContext.swift
    Sources/SQLiteRecord/Coding/RowInitializerCache.swift
    Sources/SQLiteRecord/Coding/KeyedContainerBox.swift
    Sources/SQLiteRecord/Coding/StatementBinding.swift
    # PostgresRecord's module: the libpq connection (PGconn) and its COPY protocol, the parameter buffer it hands libpq
    # (PostgresParameters), and its results (PGresult: the server's, and one-row results made in process).
    Sources/PostgresRecord/Core/PostgresConnection.swift
    Sources/PostgresRecord/Core/PostgresConnection+CopyIn.swift
    Sources/PostgresRecord/Core/PostgresParameters.swift
    Sources/PostgresRecord/Core/PostgresResult.swift
    Sources/PostgresRecord/Core/PostgresResult+Row.swift
    # Its decoder's reused memory: a reader's position and key tables, read through a plain view per column.
    Sources/PostgresRecord/Coding/PostgresRowReader.swift
    # copyIn's encoder: its per-record state, written for every field, without the runtime's access checks.
    Sources/PostgresRecord/Coding/PostgresCopyEncoder.swift
)
token_pattern='Unsafe[A-Za-z]*Pointer|Unmanaged|unsafeBitCast|unsafeDowncast|@exclusivity\(unchecked\)|_withUnsafeGuaranteedRef|unowned\(unsafe\)|\.allocate\(|withUnsafe[A-Za-z]*|nonisolated\(unsafe\)|_isPOD'
inline_pattern='@inline\(__always\)'

# The `@inline(__always)` budgets: a file and the most it may hold (see the top of this file).
inline_budgets=(
    "Sources/PostgresRecord/Coding/PostgresRowInitializer.swift 1"
    "Sources/PostgresRecord/Coding/PostgresRowDecoder.swift 2"
    "Sources/PostgresRecord/Coding/PostgresRowReader.swift 5"
    "Sources/PostgresRecord/Coding/PostgresValueReader.swift 1"
    "Sources/PostgresRecord/Core/PostgresResult.swift 8"
    "Sources/SQLiteRecord/Coding/ColumnReader.swift 10"
    "Sources/SQLiteRecord/Coding/ColumnValueDecoder.swift 1"
    "Sources/SQLiteRecord/Coding/ColumnsEncoder+Values.swift 4"
    "Sources/SQLiteRecord/Coding/ColumnsEncoder.swift 1"
    "Sources/SQLiteRecord/Coding/FetchedRow.swift 3"
    "Sources/SQLiteRecord/Coding/KeyIdentity.swift 4"
    "Sources/SQLiteRecord/Coding/KeyTrail.swift 2"
    "Sources/SQLiteRecord/Coding/KeyedContainerBox.swift 3"
    "Sources/SQLiteRecord/Coding/RecordEncodingHandle.swift 1"
    "Sources/SQLiteRecord/Coding/RowDecoder+KeptContext.swift 2"
    "Sources/SQLiteRecord/Coding/RowDecodingContext.swift 6"
    "Sources/SQLiteRecord/Coding/RowDecodingState.swift 9"
    "Sources/SQLiteRecord/Coding/RowInitializerCache.swift 5"
    "Sources/SQLiteRecord/Coding/RowKeyedContainer.swift 9"
    "Sources/SQLiteRecord/Coding/StatementBinding.swift 10"
    "Sources/SQLiteRecord/Core/ByteView.swift 19"
    "Sources/SQLiteRecord/Core/SQLiteDateFormat.swift 3"
    "Sources/SQLiteRecord/Core/SameTypeCast.swift 3"
    "Sources/SQLiteRecord/Core/Statement+Binding.swift 4"
    "Sources/SQLiteRecord/Core/StatementColumn.swift 1"
    "Sources/SQLiteRecord/Core/StatementRow.swift 1"
    "Sources/SQLiteRecord/Core/UUIDText.swift 6"
    "Sources/SQLiteRecord/Observation/ChangeTracker.swift 1"
    "Sources/SQLiteRecord/Record/ParentKeyForms.swift 1"
    "Sources/SQLiteRecord/Record/RecentlyUsedCache.swift 1"
    "Sources/SQLiteRecord/Record/RecordKey.swift 4"
    "Sources/SQLiteRecord/Record/RecordLookupPlan.swift 1"
    "Sources/SQLiteRecord/Record/RecordWritePlan+Kind.swift 1"
    "Sources/SQLiteRecord/Record/RecordWritePlan.swift 1"
)
unchecked_pattern='@unchecked[[:space:]]+Sendable'

# Prints the Swift source `$1` without its comments; string literals are kept (a `//` inside one is not
# a comment).
strip_comments() {
    awk '
    BEGIN { inBlock = 0; inString = 0 }
    {
        line = $0; out = ""; n = length(line); i = 1
        while (i <= n) {
            c = substr(line, i, 1); next2 = substr(line, i, 2)
            if (inBlock) {
                if (next2 == "*/") { inBlock = 0; i += 2 } else { i++ }
                continue
            }
            if (inString) {
                if (c == "\\") { out = out substr(line, i, 2); i += 2; continue }
                if (c == "\"") { inString = 0 }
                out = out c; i++; continue
            }
            if (next2 == "//") break
            if (next2 == "/*") { inBlock = 1; i += 2; continue }
            if (c == "\"") {
                # A multi-line literal opens with three quotes and closes on a later line.
                if (substr(line, i, 3) == "\"\"\"") { out = out "\"\"\""; i += 3; inString = !inString; continue }
                inString = 1
            }
            out = out c; i++
        }
        print out
    }' "$1"
}

# Prints `file<TAB>token` for every token of every Swift file under the given directories.
scan() {
    find "$@" -name '*.swift' -type f | LC_ALL=C sort | while IFS= read -r file; do
        strip_comments "$file" | grep -oE "$token_pattern" | sed "s|^|$file	|" || true
    done
}

scan_unchecked() {
    find "$@" -name '*.swift' -type f | LC_ALL=C sort | while IFS= read -r file; do
        count=$(strip_comments "$file" | grep -cE "$unchecked_pattern" || true)
        if [ "$count" -gt 0 ]; then printf '  %s: %s\n' "$file" "$count"; fi
    done
}

# Prints `file<TAB>count` for every Swift file under the given directories that holds `@inline(__always)`.
scan_inline() {
    find "$@" -name '*.swift' -type f | LC_ALL=C sort | while IFS= read -r file; do
        count=$({ strip_comments "$file" | grep -oE "$inline_pattern" || true; } | wc -l | tr -d ' ')
        if [ "$count" -gt 0 ]; then printf '%s\t%s\n' "$file" "$count"; fi
    done
}

# Prints the `@inline(__always)` budget of file `$1`: 0 for a file not in the list.
inline_budget() {
    local file="${1#./}" entry
    for entry in "${inline_budgets[@]}"; do
        [ "${entry% *}" = "$file" ] && { echo "${entry##* }"; return; }
    done
    echo 0
}

is_owner() {
    local file="${1#./}" owner
    for owner in "${owners[@]}"; do
        [ "$file" = "$owner" ] && return 0
    done
    return 1
}

# Audits the directories in "$@"; returns 1 when a token stands outside the owner files.
audit() {
    local tokens file outside=0 total=0
    tokens=$(scan "$@")
    echo "unsafe tokens by file (comments not counted):"
    if [ -z "$tokens" ]; then echo "  none"; fi
    while IFS= read -r file; do
        [ -n "$file" ] || continue
        local summary count mark
        summary=$(printf '%s\n' "$tokens" | awk -F'\t' -v f="$file" '$1 == f { n[$2]++ }
            END { for (t in n) printf "%s x%d, ", t, n[t] }' | sed 's/, $//')
        count=$(printf '%s\n' "$tokens" | awk -F'\t' -v f="$file" '$1 == f' | wc -l | tr -d ' ')
        total=$((total + count))
        if is_owner "$file"; then
            mark="owner"
        else
            mark="OUTSIDE THE OWNER FILES"
            outside=$((outside + count))
        fi
        printf '  %s: %d (%s): %s\n' "$file" "$count" "$mark" "$summary"
    done < <(printf '%s\n' "$tokens" | cut -f1 | LC_ALL=C sort -u)
    echo "@unchecked Sendable (allowed where a lock or a serial queue guards the state; not a failure):"
    local unchecked
    unchecked=$(scan_unchecked "$@")
    if [ -n "$unchecked" ]; then echo "$unchecked"; else echo "  none"; fi
    echo "@inline(__always) by file (comments not counted), against each file's budget:"
    local inline_total=0 over=0 budget verdict=0
    while IFS=$'\t' read -r file count; do
        [ -n "$file" ] || continue
        budget=$(inline_budget "$file")
        inline_total=$((inline_total + count))
        if [ "$count" -gt "$budget" ]; then
            mark="OVER ITS BUDGET"
            over=$((over + 1))
        else
            mark="ok"
        fi
        printf '  %s: %d (budget %d, %s)\n' "$file" "$count" "$budget" "$mark"
    done < <(scan_inline "$@")
    [ "$inline_total" -gt 0 ] || echo "  none"
    if [ "$outside" -gt 0 ]; then
        echo "FAIL: $outside of $total unsafe token(s) outside the owner files (${owners[*]})"
        verdict=1
    else
        echo "PASS: $total unsafe token(s), all in the owner files"
    fi
    if [ "$over" -gt 0 ]; then
        echo "FAIL: $over file(s) over their @inline(__always) budget (the list inline_budgets in $0)"
        verdict=1
    else
        echo "PASS: $inline_total @inline(__always), every file within its budget"
    fi
    return "$verdict"
}

self_test() {
    local tree status=0
    tree=$(mktemp -d)
    trap 'rm -rf "$tree"' RETURN
    mkdir -p "$tree/Sources/SQLiteRecord/Core"
    printf '%s\n' 'let p: UnsafePointer<UInt8>? = nil' >"$tree/Sources/SQLiteRecord/Core/Outside.swift"
    if (cd "$tree" && audit Sources >/dev/null); then
        echo "self-test FAILED: a token outside an owner file passed"; status=1
    fi
    printf '%s\n' '/// An UnsafePointer in a doc comment.' 'let x = 1  // Unmanaged, in a comment' \
        '/* unsafeBitCast */ let y = "https://example.com"  // withUnsafeBytes' \
        'final class Guarded: @unchecked Sendable {}' >"$tree/Sources/SQLiteRecord/Core/Outside.swift"
    if ! (cd "$tree" && audit Sources >/dev/null); then
        echo "self-test FAILED: tokens in comments, or @unchecked Sendable, failed the audit"; status=1
    fi
    printf '%s\n' 'let p: UnsafePointer<UInt8>? = nil' >"$tree/Sources/SQLiteRecord/Core/ByteView.swift"
    if ! (cd "$tree" && audit Sources >/dev/null); then
        echo "self-test FAILED: a token in an owner file failed the audit"; status=1
    fi
    printf '%s\n' 'let plain = _isPOD(Int.self)' >"$tree/Sources/SQLiteRecord/Core/Outside.swift"
    if (cd "$tree" && audit Sources >/dev/null); then
        echo "self-test FAILED: _isPOD outside an owner file passed"; status=1
    fi
    printf '%s\n' 'let plain = _isPOD(Int.self)' >"$tree/Sources/SQLiteRecord/Core/ByteView.swift"
    printf '%s\n' '// _isPOD, in a comment' >"$tree/Sources/SQLiteRecord/Core/Outside.swift"
    if ! (cd "$tree" && audit Sources >/dev/null); then
        echo "self-test FAILED: _isPOD in an owner file, or in a comment, failed the audit"; status=1
    fi
    # The budgets, for this tree: one file may hold two.
    local -a inline_budgets=("Sources/SQLiteRecord/Core/Budgeted.swift 2")
    printf '%s\n' '@inline(__always) func f() {}' >"$tree/Sources/SQLiteRecord/Core/Outside.swift"
    if (cd "$tree" && audit Sources >/dev/null); then
        echo "self-test FAILED: @inline(__always) in a file without a budget passed"; status=1
    fi
    printf '%s\n' '/// @inline(__always), in a comment' 'func f() {}  // @inline(__always)' \
        >"$tree/Sources/SQLiteRecord/Core/Outside.swift"
    printf '%s\n' '@inline(__always) func f() {}' '@inline(__always)' 'func g() {}' \
        >"$tree/Sources/SQLiteRecord/Core/Budgeted.swift"
    if ! (cd "$tree" && audit Sources >/dev/null); then
        echo "self-test FAILED: @inline(__always) within its budget, or in a comment, failed the audit"; status=1
    fi
    printf '%s\n' '@inline(__always) func h() {}' >>"$tree/Sources/SQLiteRecord/Core/Budgeted.swift"
    if (cd "$tree" && audit Sources >/dev/null); then
        echo "self-test FAILED: @inline(__always) over its budget passed"; status=1
    fi
    [ "$status" -eq 0 ] && echo "self-test: ok"
    return "$status"
}

dirs=()
report=0
while [ $# -gt 0 ]; do
    case "$1" in
    --only) dirs+=("${2:?--only needs a directory}"); shift 2 ;;
    --report) report=1; shift ;;
    --self-test) self_test; exit $? ;;
    *) echo "unknown argument: $1 (see the usage at the top of $0)" >&2; exit 2 ;;
    esac
done
[ ${#dirs[@]} -gt 0 ] || dirs=(Sources)

if audit "${dirs[@]}"; then exit 0; fi
[ "$report" -eq 1 ] && exit 0
exit 1
