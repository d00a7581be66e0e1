#!/usr/bin/env bash
# Observed on 7635abb: FINDING for a FIFO at read-side/read-side.sqlite: `tally balances` and
# `tally apply` block forever in open(2)/read(2) of the FIFO (killed by timeout; nothing applied).
# Every other case held. The chmod cases are meaningless when run as root (root bypasses modes).
#
# The store path replaced by other kinds of file between CLI runs: every run must end (no hang,
# no signal) and `tally balances` must print the replay's balances.
source "$(dirname "$0")/readside-common.sh"
echo "work: $WORK"
BASE=$WORK/base
"$TALLY" apply --ledger "$BASE" "$ROOT/Sources/TallyCLI/Demo/household.jsonl" > /dev/null || exit 2
cp -a "$BASE" "$WORK/ref" && rm -rf "$WORK/ref/read-side"
"$TALLY" balances --ledger "$WORK/ref" > "$WORK/reference.out"
gen_tx 1 1 100 > "$WORK/one.jsonl"
n=0
check() {  # check NAME SETUP-COMMANDS (run in the ledger dir)
  local name=$1 setup=$2 dir=$WORK/$1
  n=$((n + 1))
  rm -rf "$dir"; cp -a "$BASE" "$dir"
  (cd "$dir" && eval "$setup")
  timeout 20 "$TALLY" balances --ledger "$dir" > "$WORK/$name.bal" 2> "$WORK/$name.bal.err"; local rc=$?
  if [ $rc -eq 124 ]; then fail "$name: 'tally balances' hung (killed after 20 s)";
  elif [ $rc -ge 128 ]; then fail "$name: 'tally balances' died with signal $((rc - 128))";
  elif [ $rc -ne 0 ]; then echo "$name: balances exit $rc: $(head -c 200 "$WORK/$name.bal.err")";
  elif ! cmp -s "$WORK/$name.bal" "$WORK/reference.out"; then fail "$name: balances differ from the replay";
  else ok "$name: balances = replay"; fi
  timeout 30 "$TALLY" apply --ledger "$dir" "$WORK/one.jsonl" > "$WORK/$name.apply" 2> "$WORK/$name.apply.err"; rc=$?
  if [ $rc -eq 124 ]; then fail "$name: 'tally apply' hung (killed after 30 s)";
  elif [ $rc -ge 128 ]; then fail "$name: 'tally apply' died with signal $((rc - 128))";
  else echo "$name: apply exit $rc $(head -c 150 "$WORK/$name.apply") $(head -c 150 "$WORK/$name.apply.err")"; fi
  (cd "$dir" && chmod -R u+rwX . 2>/dev/null; rm -f read-side.fifo)
}
check fifo 'rm -f read-side/read-side.sqlite* && mkfifo read-side/read-side.sqlite'
check directory 'rm -f read-side/read-side.sqlite* && mkdir read-side/read-side.sqlite'
check folder-is-file 'rm -rf read-side && echo x > read-side'
check chmod000 'chmod 000 read-side/read-side.sqlite'
check folder-chmod000 'chmod 000 read-side'
check symlink-dangling 'rm -f read-side/read-side.sqlite* && ln -s /nonexistent/x read-side/read-side.sqlite'
check symlink-devnull 'rm -f read-side/read-side.sqlite* && ln -s /dev/null read-side/read-side.sqlite'
check empty 'truncate -s 0 read-side/read-side.sqlite'
check half 'truncate -s 6000 read-side/read-side.sqlite'
check wal-garbage 'head -c 70000 /dev/urandom > read-side/read-side.sqlite-wal'
check shm-garbage 'head -c 32768 /dev/urandom > read-side/read-side.sqlite-shm'
check shm-dir 'mkdir read-side/read-side.sqlite-shm'
check wal-dir 'mkdir read-side/read-side.sqlite-wal'
check wal-fifo 'mkfifo read-side/read-side.sqlite-wal'
echo "findings: $FAILURES"
[ $FAILURES -eq 0 ]
