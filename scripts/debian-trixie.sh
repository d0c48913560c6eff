#!/bin/sh
# Prints a folder fetched from Debian 13 (trixie) for another architecture, for building and
# checking that architecture's release archive on this machine:
#   jmods    JDK 25 jmods from openjdk-25-jdk-headless (jlink cuts a foreign runtime only from
#            jmods); a runtime made from them needs glibc 2.38+, libstdc++, libgcc_s and zlib
#   sysroot  those libraries (libc6, libstdc++6, libgcc-s1, zlib1g), for qemu-user to run that
#            runtime here (Debian 12's cross sysroot has glibc 2.36)
# Packages come through apt-get with private lists and cache under DIR: the machine's apt
# sources are not touched. The jmods are about 300 MB to fetch, once.
# Usage: debian-trixie.sh jmods|sysroot ARCH DIR
set -eu
what=$1 arch=$2
mkdir -p "$3" && dir=$(cd "$3" && pwd)
case "$arch" in aarch64) deb_arch=arm64 loader=ld-linux-aarch64.so.1 ;; x86_64) deb_arch=amd64 loader=ld-linux-x86-64.so.2 ;; *) echo "debian-trixie.sh: not for $arch" >&2; exit 2 ;; esac
case "$what" in
  jmods)   result="$dir/jdk-$arch/usr/lib/jvm/java-25-openjdk-$deb_arch/jmods"; probe="$result/java.base.jmod"
           packages="openjdk-25-jdk-headless:$deb_arch" ;;
  sysroot) result="$dir/sysroot-trixie-$arch"; probe="$result/lib/$loader"
           packages="libc6:$deb_arch libstdc++6:$deb_arch libgcc-s1:$deb_arch zlib1g:$deb_arch" ;;
  *) echo "debian-trixie.sh: jmods or sysroot, not $what" >&2; exit 2 ;;
esac
[ -e "$probe" ] && { echo "$result"; exit 0; }
command -v apt-get >/dev/null 2>&1 || { echo "debian-trixie.sh: needs apt-get (Debian or Ubuntu)" >&2; exit 2; }
apt="$dir/apt-trixie-$deb_arch"
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/sources.list.d"
echo "deb http://deb.debian.org/debian trixie main" > "$apt/sources.list"
opts="-o Dir::Etc::sourcelist=$apt/sources.list -o Dir::Etc::sourceparts=$apt/sources.list.d
      -o Dir::State::Lists=$apt/lists -o Dir::Cache=$apt/cache -o APT::Architectures::=$deb_arch
      -o APT::Architecture=$deb_arch -o APT::Sandbox::User=root -o Debug::NoLocking=1"
echo "debian-trixie.sh: fetching $packages from Debian trixie" >&2
# shellcheck disable=SC2086
apt-get $opts -qq update >&2
# shellcheck disable=SC2086
(cd "$apt" && rm -f ./*.deb && apt-get $opts -qq download $packages >&2)
if [ "$what" = jmods ]; then
  mkdir -p "$dir/jdk-$arch"
  dpkg-deb --fsys-tarfile "$apt"/openjdk-25-jdk-headless_*.deb \
    | tar -C "$dir/jdk-$arch" -x --wildcards "./usr/lib/jvm/java-25-openjdk-$deb_arch/jmods/*"
else
  mkdir -p "$result"
  for d in "$apt"/*.deb; do dpkg-deb -x "$d" "$result"; done
  ln -sfn usr/lib "$result/lib"   # merged /usr: the loader's path is /lib/ld-linux-*.so.1
fi
rm -f "$apt"/*.deb
[ -e "$probe" ] || { echo "debian-trixie.sh: $probe is missing after the fetch" >&2; exit 2; }
echo "$result"
