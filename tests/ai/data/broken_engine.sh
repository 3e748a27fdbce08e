#!/bin/sh
# A deliberately broken engine for the external-engine tests. $1 picks how it misbehaves:
#   crash    answers the handshake, then dies when asked to move
#   segv     the same, by a segmentation fault
#   hang     answers the handshake, then never moves
#   garbage  answers "bestmove banana"
#   chatter  prints a line that is not part of the protocol
#   illegal  answers a move that is not legal
#   silent   never answers the handshake
#   bz-crash, bz-hang, bz-garbage, bz-illegal: the same in Botzone's format
mode=$1
while IFS= read -r line; do
  case "$mode:$line" in
    silent:*) ;;
    bz-crash:*) exit 3 ;;
    bz-hang:*) sleep 600 ;;
    bz-garbage:*) echo "banana"; exit 0 ;;
    bz-illegal:*) echo "0 0 0 0 0 0"; exit 0 ;;
    *:isready) echo readyok ;;
    *:newgame) echo ok ;;
    *:position*) echo ok ;;
    crash:go*) exit 3 ;;
    segv:go*) kill -SEGV $$ ;;
    hang:go*) sleep 600 ;;
    garbage:go*) echo "bestmove banana" ;;
    chatter:go*) echo "thinking hard..." ;;
    illegal:go*) echo "bestmove a1-a1/a1" ;;
    *:quit) exit 0 ;;
  esac
done
