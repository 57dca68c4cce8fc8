# The node shell's kill: a containerd shim's pid is a virtual one, past
# pid_max (containerd's shim host runs every sandbox's shim in one process),
# so a kill naming one goes to the node tool `kill` (services/node
# src/kill.ts), which signals that shim through its host; every other kill
# (pids, job specs, -l) is bash's own builtin. Sourced by the node shell
# (BASH_ENV for `bash -c`, the rc file of an interactive one).
kill() {
  local a max
  max=$(cat /proc/sys/kernel/pid_max 2>/dev/null) || max=4194304
  for a in "$@"; do
    case $a in
      '' | *[!0-9]*) ;;
      *) if [ "$a" -gt "$max" ]; then
        "$(type -P kill)" "$@"
        return
      fi ;;
    esac
  done
  builtin kill "$@"
}
