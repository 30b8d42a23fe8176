#!/bin/sh
# print_args.sh: prints its arguments, each in brackets, on one line: the program of the tests
# that check coalprobe trace passes everything after -- as it is.
printf 'argv:'
for a in "$@"; do printf '[%s]' "$a"; done
printf '\n'
