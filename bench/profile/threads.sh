# per-thread CPU of a pid: name and ms
for t in /proc/$1/task/*; do printf "%-20s %10.1f ms\n" "$(cat $t/comm)" $(awk '{print $1/1e6}' $t/schedstat); done
