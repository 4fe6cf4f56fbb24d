#!/usr/bin/env zsh
# capture.zsh DIR WORDS: the matches zsh's completion offers for WORDS<Tab>, one per line,
# with the _qsel function from DIR on fpath: an interactive zsh in a pseudo-terminal
# whose compadd also prints each match.
zmodload zsh/zpty || exit 77
zpty z zsh -f -i
zpty -w z "PROMPT=''; fpath=($1 \$fpath); autoload -U compinit; compinit -u -D"
zpty -w z 'compadd () {
  if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return $?; fi
  typeset -a __hits; builtin compadd -A __hits "$@"
  local h; for h in $__hits; do print -r -- "<<ma""tch>>$h<<"; done
}'
zpty -w z "bindkey '^I' complete-word"
zpty -w z "print -r -- '<<sta''rt>>'"
local out
zpty -r z out '*<<start>>*'
zpty -w -n z "$2"$'\t'
zpty -w z $'\C-U'
zpty -w z "print -r -- '<<e''nd>>'"
zpty -r z out '*<<end>>*'
zpty -d z
local m
for m in ${(f)out}; do
  [[ $m == *'<<match>>'* ]] && print -r -- "${${m##*<<match>>}%%<<*}"
done
