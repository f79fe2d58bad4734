# Shared by the platform root scripts (sourced, not run): unpacked roots of
# Debian binary packages, for tests of pinrock's libraries on other
# platforms, fetched as engine/common.sh fetches the engine's sources.
source "$(dirname "${BASH_SOURCE[0]}")/../engine/common.sh"

# Prints the path of a root of Debian binary packages, unpacked (not
# installed) and cached under the cache root's platform/NAME-<key>, the key
# being the recipe_key of the calling script and this file: the packages
# "$5"... of Debian architecture $2 from suite $3. A merged /usr gets its
# /lib and /bin links, and links to absolute paths (e.g. a JDK's conf/
# files, links into /etc) are made relative, so that they resolve inside
# the root both in a chroot and under qemu's -L prefix. The root counts as
# complete only when it holds the file $4 (a path inside it).
unpacked_root() {
  local name=$1 arch=$2 suite=$3 expected=$4 root
  shift 4
  root=$engine_cache_root/platform/$name-$(recipe_key "${BASH_SOURCE[1]}" "${BASH_SOURCE[0]}")
  if [[ ! -f $root/.complete ]]; then
    lock_cache "$engine_cache_root/platform"
    if [[ ! -f $root/.complete ]]; then
      rm -rf "$root" "$root.work"
      log "unpacking $arch $suite packages: $*"
      apt_extra_opts=(-o "APT::Architecture=$arch" -o "APT::Architectures=$arch")
      private_apt "$root.work/apt" "deb [arch=$arch signed-by=KEYRING] MIRROR $suite main"
      unpack_packages "$root" "$root.work/debs" "$@"
      [[ -e $root/lib ]] || ln -s usr/lib "$root/lib"
      [[ -e $root/bin ]] || ln -s usr/bin "$root/bin"
      find "$root" -lname '/*' | while IFS= read -r link; do
        ln -sfnr "$root$(readlink "$link")" "$link"
      done
      [[ -e $root/$expected ]] || die "the $suite $arch packages ($*) unpacked without /$expected"
      rm -rf "$root.work"
      touch "$root/.complete"
    fi
  fi
  echo "$root"
}
