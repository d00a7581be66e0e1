#!/usr/bin/env bash
# Forgetting (P3) and the read-side store of an UNENCRYPTED ledger, read with the public
# integrity key (readside_pages.py grep: every database page and every WAL frame decrypted).
#
# Case A (control): a normal `forgetPerson`: after it, no page of the store or its WAL holds the
#   name in plaintext.
# Case B (held when run on 7635abb: the state redacts a forgotten person before the key is
#   destroyed, so the store never got the name): the key file cannot be replaced while the forgetting commits (here: a
#   directory squats on `personal-keys.tmp`; in real life an I/O error or a full disk). The
#   command is acknowledged, the forgetting is left unfinished (`unfinishedForgetting`), and the
#   commit writes the store with the name in clear and coverage = journal end. The next
#   `Ledger.open` completes the forgetting (key destroyed, state refolded, names redacted) but
#   then finds the store's coverage equal to the journal's end and keeps it "current": the
#   store keeps serving the forgotten name (people table, and as wallet owner in
#   `tally balances`) and the name stays in its pages until some later batch rewrites `people`.
#   Checked: a store written before the forgetting completed is rewritten (or rebuilt) when
#   open completes it; no page holds the name once the key is destroyed.
source "$(dirname "$0")/readside-common.sh"
echo "work: $WORK"
NAME=Carol
CAROL=00000002-0000-4000-8000-000000000003
forget_line() {
  printf '{"command": "forgetPerson", "commandID": "0000000c-0000-4000-8000-0000000f%04x", "actor": "00000002-0000-4000-8000-000000000001", "recordedAt": "2026-03-02T09:%02d:00.000Z", "personID": "%s"}\n' "$1" "$1" "$CAROL"
}
carol_wallet='{"command": "openWallet", "commandID": "0000000c-0000-4000-8000-0000000e0001", "actor": "00000002-0000-4000-8000-000000000001", "recordedAt": "2026-03-01T23:59:00.000Z", "walletID": "00000003-0000-4000-8000-0000000000c0", "name": "Kitty", "kind": "cash", "openingBalance": {"minorUnits": 5000, "currency": "CHF"}, "openedOn": "2026-01-01", "owner": "00000002-0000-4000-8000-000000000003"}'

setup() {  # setup DIR
  "$TALLY" apply --ledger "$1" "$ROOT/Sources/TallyCLI/Demo/household.jsonl" > /dev/null || { echo "setup failed"; exit 2; }
  gen_tx 1 3 500 | "$TALLY" apply --ledger "$1" - > /dev/null
  echo "$carol_wallet" | "$TALLY" apply --ledger "$1" - | head -c 300; echo
}

# Case A
A=$WORK/a
setup "$A"
$PAGES grep "$A/read-side" "$NAME" > "$WORK/a-before.txt"; echo "A before forgetting: $(tail -1 "$WORK/a-before.txt")"
forget_line 1 | "$TALLY" apply --ledger "$A" -
if $PAGES grep "$A/read-side" "$NAME" > "$WORK/a-after.txt"; then
  ok "A: no page of the store or WAL holds '$NAME' after forgetPerson"
else
  fail "A: '$NAME' still in the store after forgetPerson:"; cat "$WORK/a-after.txt"
fi

# Case B
B=$WORK/b
setup "$B"
mkdir -p "$B/personal-keys.tmp" && touch "$B/personal-keys.tmp/squat"
forget_line 2 | "$TALLY" apply --ledger "$B" - ; echo "apply exit $?"
rm -rf "$B/personal-keys.tmp"
# A writing command that commits nothing (its only line is rejected: Carol is already forgotten)
# opens the ledger, which completes the forgetting (key destroyed, names redacted).
forget_line 3 | "$TALLY" apply --ledger "$B" - ; echo "apply exit $?"
"$TALLY" log --ledger "$B" 2>/dev/null | grep -c "$NAME" | sed 's/^/journal read-out lines with the name after open completed the forgetting: /'
"$TALLY" balances --ledger "$B" > "$WORK/b-store.out" 2>&1
cp -a "$B" "$WORK/b-replay" && rm -rf "$WORK/b-replay/read-side"
"$TALLY" balances --ledger "$WORK/b-replay" > "$WORK/b-replay.out" 2>&1
if ! cmp -s "$WORK/b-store.out" "$WORK/b-replay.out"; then
  fail "B: 'tally balances' from the store differs from the replay after the forgetting completed:"
  diff "$WORK/b-store.out" "$WORK/b-replay.out"
else
  ok "B: balances from the store equal the replay"
fi
if $PAGES grep "$B/read-side" "$NAME" > "$WORK/b-after.txt"; then
  ok "B: no page holds '$NAME'"
else
  fail "B: '$NAME' readable (public integrity key) in the store after the forgetting completed at open:"; cat "$WORK/b-after.txt"
fi
echo "findings: $FAILURES"
[ $FAILURES -eq 0 ]
