#!/usr/bin/env bash
# scripts/pg_root.sh ROOT PROGRAM [ARGS...]: runs PROGRAM (a path inside ROOT) of the Debian root
# that scripts/pg.sh builds with debootstrap when a PostgreSQL's source package cannot be fetched
# but its binary packages, built for a newer Debian than this machine's, can. scripts/pg.sh
# copies it next to the wrappers it writes (bin/psql, bin/pg_ctl, ...), which call it.
#
# The program sees the host's /tmp and the checkout at the same paths, so that file arguments
# (pg_dump -f /tmp/..., psql -f test/..., the cluster's socket and data directory under /tmp)
# work as on the host. The bind mounts are made in a private mount namespace of this command
# (unshare --mount --propagation private): the host's mount table never holds them, and the
# kernel removes them when the last process of the namespace ends (the command, or a server that
# pg_ctl started from it when that server stops), whichever way it ends; nothing to unmount.
#
# initdb, pg_ctl and postgres run as the root's postgres user (which scripts/pg.sh creates with
# the host postgres user's uid and gid, so that both own the same files); other programs as the
# caller. It needs root (mount namespace, chroot): lib.sh's fs_as_owner calls it as root and
# leaves the switch to it.
set -euo pipefail

root=${1:?usage: pg_root.sh ROOT PROGRAM [ARGS...]}
prog=${2:?usage: pg_root.sh ROOT PROGRAM [ARGS...]}
shift 2
name=${prog##*/}
if [ "$(id -u)" != 0 ]; then
    echo "$name: this PostgreSQL runs in the Debian root $root (chroot); run it as root" >&2
    exit 1
fi

if [ -z "${FS_PG_ROOT_NS:-}" ]; then
    # a mount namespace of our own; the same script goes on inside it
    FS_PG_ROOT_NS=1 exec unshare --mount --propagation private -- "$0" "$root" "$prog" "$@"
fi
unset FS_PG_ROOT_NS

# the directories the program sees at their host paths: /tmp, the checkout (FS_CHECKOUT, set by
# scripts/lib.sh, else the git checkout of the working directory) and the working directory;
# one mount for a directory inside another that is mounted already
checkout=${FS_CHECKOUT:-$(git rev-parse --show-toplevel 2>/dev/null || true)}
mounted=()
under_mounted() {
    local m
    for m in "${mounted[@]}"; do
        case $1/ in "$m"/*) return 0 ;; esac
    done
    return 1
}
mount --rbind /dev "$root/dev"
mount -t proc proc "$root/proc"
for d in /tmp "$checkout" "$PWD"; do
    if [ -z "$d" ] || ! [ -d "$d" ]; then continue; fi
    d=$(readlink -f "$d")
    [ "$d" != / ] || continue
    under_mounted "$d" && continue
    mkdir -p "$root$d"
    mount --rbind "$d" "$root$d"
    mounted+=("$d")
done

as=()
case $name in
    initdb | pg_ctl | postgres)
        as=(--userspec=postgres:postgres)
        export HOME=/var/lib/postgresql USER=postgres LOGNAME=postgres
        ;;
esac
# shellcheck disable=SC2016
exec chroot "${as[@]}" "$root" /bin/sh -c 'cd "$1" && shift && exec "$@"' sh "$PWD" "$prog" "$@"
