#!/usr/bin/env bash
# The manual page and the bash and zsh completions (build/packaging/generated) agree with what
# `skewscope --help` prints: every subcommand, every option of each subcommand's lines, and each
# literal value list (--format text|json, --view ..., cache info|clear). What --help states is read
# here with grep and sed, apart from the generator; a few cases are also written out by hand.
# docs_agree.sh man|bash|zsh <skewscope> <generated folder>
set -euo pipefail
what=$1 bin=$(realpath "$2") gen=$(realpath "$3")
help=$("$bin" --help)
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# the lines of one command's entries in --help (continuation lines included)
entry() {
  awk -v c="$1" '/^  skewscope /{on = ($2 == c)} /^  --|^exit codes/{on = 0} on' <<<"$help"
}
commands=$(awk '/^  skewscope [a-z]+ /{print $2}' <<<"$help" | sort -u)
# "OPTION VALUE|VALUE..." pairs of one command's lines (parenthesised remarks dropped)
value_lists() {
  entry "$1" | sed 's/([^)]*)//g' | tr -s ' \n' '\n\n' |
    awk 'prev ~ /^\[?--/ {o = prev; sub(/^\[/, "", o); sub(/\]+$/, "", o); v = $0; sub(/\]+$/, "", v);
                          n = split(v, p, "|"); out = "";
                          for (i = 1; i <= n; i++) if (p[i] ~ /^[a-z][a-z0-9]*$/) out = out " " p[i];
                          if (out != "") print o out}
         {prev = $0}'
}
options_of() {
  { entry "$1" | sed 's/([^)]*)//g' | grep -o -- '--[a-z][a-z-]*' || true
    grep -qE "^  --no-cache \([^)]*\<$1\>" <<<"$help" && echo --no-cache
    # "[analyze's options]": analyze's analysis settings, written out here
    entry "$1" | grep -q "analyze's options" && printf '%s\n' --trim --big-skew-ms --step-regex --anomaly-threshold --limit
  } | sort -u
}
[ -n "$commands" ] || bad "no subcommand read from --help"

case $what in
man)
  LC_ALL=C groff -man -ww -z "$gen/skewscope.1" 2>"$gen/groff.err" || true
  [ ! -s "$gen/groff.err" ] || bad "groff: $(cat "$gen/groff.err")"
  zcat "$gen/skewscope.1.gz" | cmp -s - "$gen/skewscope.1" || bad "skewscope.1.gz is not skewscope.1"
  text=$(MANWIDTH=200 man -l "$gen/skewscope.1" 2>/dev/null | col -b)
  for c in $commands; do
    grep -qE "^ +skewscope $c( |$)" <<<"$text" || bad "man: no synopsis of $c"
    grep -qE "^ {7}$c( |$)" <<<"$text" || bad "man: $c not under COMMANDS"
  done
  # every synopsis line of --help, as it is (its summary after a wide gap dropped)
  while IFS= read -r line; do
    line=$(sed 's/^ *//; s/   .*//' <<<"$line")
    grep -qF -- "$line" <<<"$text" || bad "man: no line '$line'"
  done < <(grep -E '^  skewscope' <<<"$help")
  for o in $(grep -o -- '--[a-z][a-z-]*' <<<"$help" | sort -u); do
    grep -qE "^ {7}$o( |,|$)" <<<"$text" || bad "man: $o not under OPTIONS"
  done
  grep -q 'EXIT STATUS' <<<"$text" && grep -qF "$(sed -n 's/^exit codes: //p' <<<"$help")" <<<"$text" ||
    bad "man: exit codes differ from --help"
  ;;
bash)
  cd "$(mktemp -d)"  # no files for compgen -f to offer, but the one made below
  source "$gen/skewscope.bash"
  complete_words() {  # the candidates for the last word of "$@"
    COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMPREPLY=()
    _skewscope
    printf '%s\n' "${COMPREPLY[@]}" | sort -u | tr '\n' ' ' | sed 's/ $//'
  }
  got=$(complete_words skewscope "")
  for c in $commands; do grep -qw "$c" <<<"$got" || bad "bash: '$c' not offered as a command ($got)"; done
  for c in $commands; do
    got=$(complete_words skewscope "$c" f.sqlite --)
    for o in $(options_of "$c"); do grep -qw -- "$o" <<<"$got" || bad "bash: $c: $o not offered ($got)"; done
    while read -r o values; do
      [ -n "$o" ] || continue
      want=$(tr ' ' '\n' <<<"$values" | sort -u | tr '\n' ' ' | sed 's/ $//')
      # the values of all of the command's lines for that option
      all=$(value_lists "$c" | awk -v o="$o" '$1 == o {for (i = 2; i <= NF; i++) print $i}' | sort -u | tr '\n' ' ' | sed 's/ $//')
      got=$(complete_words skewscope "$c" "$o" "")
      [ "$got" = "$all" ] || bad "bash: $c $o offers '$got', --help lists '$all'"
      for v in $want; do grep -qw "$v" <<<"$got" || bad "bash: $c $o: $v missing"; done
    done < <(value_lists "$c")
  done
  # by hand
  [ "$(complete_words skewscope render --view "")" = "collective compare heatmap stepmap timeline whatif" ] || bad "bash: render --view"
  [ "$(complete_words skewscope info --format "")" = "json text" ] || bad "bash: info --format"
  [ "$(complete_words skewscope analyze f --format "")" = "csv json md text" ] || bad "bash: analyze --format"
  [ "$(complete_words skewscope cache "")" = "clear info" ] || bad "bash: cache"
  [ "$(complete_words skewscope render --collective w)" = "worst" ] || bad "bash: render --collective"
  grep -qw -- --trim <<<"$(complete_words skewscope info --)" && bad "bash: info offers --trim, which it refuses"
  : > findings.json
  [ "$(complete_words skewscope analyze f --output fin)" = "findings.json" ] || bad "bash: analyze --output offers no file"
  [ "$(complete_words skewscope analyze f --trim 1 "")" = "" ] || bad "bash: --trim's second number gets candidates"
  ;;
zsh)
  zsh -n "$gen/_skewscope" || bad "zsh: syntax"
  head -1 "$gen/_skewscope" | grep -qx '#compdef skewscope' || bad "zsh: no #compdef line"
  for c in $commands; do
    grep -q "$c\\\\:" "$gen/_skewscope" || bad "zsh: '$c' not offered as a command"
    block=$(awk -v c="    $c)" '$0 == c {on = 1; next} /^    [a-z*]+\)$/ {on = 0} on' "$gen/_skewscope")
    [ -n "$block" ] || { bad "zsh: no case for $c"; continue; }
    for o in $(options_of "$c"); do grep -qF -- "'*$o[" <<<"$block" || bad "zsh: $c: no spec of $o"; done
    while read -r o values; do
      [ -n "$o" ] || continue
      all=$(value_lists "$c" | awk -v o="$o" '$1 == o {for (i = 2; i <= NF; i++) print $i}' | sort -u | tr '\n' ' ' | sed 's/ $//')
      grep -F -- "'*$o[" <<<"$block" | grep -qF "($all)" || bad "zsh: $c $o: values ($all) missing"
    done < <(value_lists "$c")
  done
  grep -q "_arguments '1:action:(clear info)'" "$gen/_skewscope" || bad "zsh: cache info|clear"
  ;;
*) echo "usage: docs_agree.sh man|bash|zsh <skewscope> <generated folder>"; exit 2 ;;
esac
[ $fail -eq 0 ] && echo "$what agrees with --help"
exit $fail
