# Shared by the build and test scripts (sourced, not run): times the stages
# of the test command.
#
#   stage NAME COMMAND [ARGS...]
# runs COMMAND and, when PINROCK_STAGE_TIMES names a file, appends
# "NAME<TAB>SECONDS" to it; COMMAND's output and status pass through.
# scripts/test.sh prints the stages and checks them against
# scripts/stage-budgets.tsv.
stage() {
  local name=$1 start=$SECONDS status=0
  shift
  "$@" || status=$?
  [[ -z ${PINROCK_STAGE_TIMES:-} ]] || printf '%s\t%s\n' "$name" $((SECONDS - start)) >>"$PINROCK_STAGE_TIMES"
  return $status
}

# Prints, from a Maven log, "module NAME<TAB>SECONDS" for each module of the
# reactor summary and "test CLASS<TAB>SECONDS" for each test class (each
# surefire run of it) that took a minute or more.
record_maven_stages() {
  awk '
    function seconds(text,   parts, n) {
      if (text ~ / min$/) { sub(/ min$/, "", text); n = split(text, parts, ":"); return parts[1] * 60 + parts[2] }
      if (text ~ / h$/) { sub(/ h$/, "", text); n = split(text, parts, ":"); return parts[1] * 3600 + parts[2] * 60 }
      sub(/ s$/, "", text); return text + 0
    }
    /Reactor Summary/ { summary = 1; next }
    summary && /(SUCCESS|FAILURE|SKIPPED) \[/ {
      line = $0; sub(/^\[INFO\] /, "", line)
      name = line; sub(/ \.+.*$/, "", name); sub(/ [A-Z]+ \[.*$/, "", name)
      time = line; sub(/^.*\[ */, "", time); sub(/\]$/, "", time)
      printf "module %s\t%d\n", name, seconds(time) + 0.5
    }
    /Tests run:.*Time elapsed: .* -- in / {
      match($0, /Time elapsed: [0-9.,]+ s/); time = substr($0, RSTART + 14, RLENGTH - 16); gsub(/,/, "", time)
      class = $0; sub(/^.* -- in /, "", class)
      if (time + 0 >= 60) printf "test %s\t%d\n", class, time + 0.5
    }' "$1"
}

# Prints the stages in the file $1 ("NAME<TAB>SECONDS" lines) with their
# budgets from $2 ("NAME<TAB>SECONDS" lines, # comments), and returns 1
# naming each stage over its budget.
check_stage_budgets() {
  awk -F'\t' '
    FNR == NR { if ($0 !~ /^#/ && NF >= 2) budget[$1] = $2; next }
    {
      limit = ($1 in budget) ? budget[$1] : ""
      printf "[pinrock] stage %-62s %6d s%s\n", $1, $2, limit == "" ? "" : sprintf(" (budget %d s)", limit)
      if (limit != "" && $2 > limit) { over = over sprintf("\n  %s: %d s, budget %d s", $1, $2, limit) }
    }
    END {
      if (over != "") {
        print "[pinrock] ERROR: stages over their budget (scripts/stage-budgets.tsv):" over > "/dev/stderr"
        print "  Fix: make the stage fit its budget again, or raise the budget in the same commit and say why" > "/dev/stderr"
        exit 1
      }
    }' "$2" "$1"
}
