# Sourced by in-bullseye and jdk-own-mounts/bin/java (not run): what an
# ordinary user needs to mount and chroot. For root, user_namespace is empty;
# for anyone else it holds unshare's arguments for a user namespace of the
# user's own, where the user is root (uid 0 inside maps to the user's uid, so
# files written there are the user's). A kernel that refuses user namespaces
# to ordinary users ends the script, naming the fix; $1 names the caller.
user_namespace=()
if [[ $(id -u) != 0 ]]; then
  unshare --user --map-root-user true 2>/dev/null || {
    echo "$1: mounting and chroot need root or a user namespace, and this kernel refuses user namespaces to other users: run the tests as root, or allow them (sysctl user.max_user_namespaces=N, and kernel.unprivileged_userns_clone=1 where it exists)" >&2
    exit 2
  }
  user_namespace=(--user --map-root-user)
fi
