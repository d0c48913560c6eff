#!/usr/bin/env bash
# Builds the release archives: target/release/vprof-VERSION-linux-{x86_64,aarch64}.tar.gz, each
# a folder with the launcher (./vprof), lib/vprof.jar, native/ (the agent, the injector, the
# CUPTI test double and the synthetic GPU process of that architecture) and runtime/, a Java
# runtime made by JDK 25's jlink with only the modules vprof needs. Unpacked, it runs on a
# machine with no JDK, Maven, gcc or CUDA toolkit; the launcher never builds there.
#
#   scripts/release.sh [--arch x86_64|aarch64|all] [--no-build] [--fetch-jmods]
#
# --no-build packs the jar and native files already built (mvn -B package) instead of building.
# The other architecture's runtime needs that architecture's jmods (jlink cannot link a foreign
# run-time image): set VPROF_JMODS_<arch> to a folder of them, or pass --fetch-jmods to take
# Debian 13's OpenJDK 25 jmods (scripts/debian-trixie.sh; that runtime needs glibc 2.38+). Without
# either the archive ships without a runtime and its launcher uses a Java 22+ on the machine.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/target/release"
arches="x86_64 aarch64"
build=1
fetch_jmods=0
while [ $# -gt 0 ]; do
  case "$1" in
    --arch) shift; case "${1:-}" in all) arches="x86_64 aarch64" ;; x86_64|aarch64) arches=$1 ;;
              *) echo "release.sh: --arch takes x86_64, aarch64 or all" >&2; exit 2 ;; esac ;;
    --no-build) build=0 ;;
    --fetch-jmods) fetch_jmods=1 ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "release.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
max_bytes=$((60 * 1024 * 1024))
host=$(uname -m)
version=$(sed -n 's:^  <version>\(.*\)</version>$:\1:p' "$root/pom.xml" | head -n1)
[ -n "$version" ] || { echo "release.sh: cannot read the version from pom.xml" >&2; exit 2; }

# A JDK 25 or newer with jlink and jdeps (the runtime is cut from it).
jdk=""
for c in ${JAVA_HOME:+"$JAVA_HOME"} /usr/lib/jvm/* /usr/local/lib/jvm/* /opt/java/* "$HOME"/.sdkman/candidates/java/* "$HOME"/.jdks/*; do
  [ -x "$c/bin/jlink" ] && [ -x "$c/bin/jdeps" ] || continue
  v=$("$c/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p' | cut -d. -f1)
  if [ "${v:-0}" -ge 25 ] 2>/dev/null; then jdk=$c; break; fi
done
[ -n "$jdk" ] || { echo "release.sh: needs a JDK 25 or newer with jlink (set JAVA_HOME)" >&2; exit 2; }

if [ "$build" = 1 ]; then
  echo "release.sh: building (mvn -B -DskipTests -pl java -am package) ..." >&2
  (cd "$root" && JAVA_HOME="$jdk" mvn -B -q -DskipTests -pl java -am package)
fi
jar="$root/java/target/vprof.jar"
[ -f "$jar" ] || { echo "release.sh: $jar is missing; build first (mvn -B package) or drop --no-build" >&2; exit 2; }

# The modules the jar and its libraries refer to, less two that only optional library code
# touches, which keeps the runtime half the size: java.desktop (Jackson's java.beans annotations,
# looked up reflectively) and jdk.jfr (Netty's optional flight-recorder events). java.sql stays:
# `vprof export --format sqlite` writes through sqlite-jdbc, a JDBC driver. scripts/release-check.sh
# runs the commands on the result.
modules=$("$jdk/bin/jdeps" --print-module-deps --ignore-missing-deps --multi-release 25 "$jar" \
          | tr ',' '\n' | grep -vxE 'java\.desktop|jdk\.jfr' | paste -sd, -)
case ",$modules," in *,java.sql,*) ;; *) modules="$modules,java.sql" ;; esac
# engine/StopSignals reaches sun.misc.Signal by reflection (Ctrl-C finishes the file and exits 0),
# which jdeps cannot see.
case ",$modules," in *,jdk.unsupported,*) ;; *) modules="$modules,jdk.unsupported" ;; esac
echo "release.sh: runtime modules: $modules" >&2

strip_for() { case "$1" in "$host") echo strip ;; aarch64) echo aarch64-linux-gnu-strip ;; x86_64) echo x86_64-linux-gnu-strip ;; esac; }

mkdir -p "$out"
for arch in $arches; do
  name="vprof-$version-linux-$arch"
  dir="$out/$name"
  files="$root/native/target/jar/dev/vprof/native/linux-$arch"
  [ -f "$files/libvprof.so" ] || { echo "release.sh: no $arch native files in $files: for aarch64 install gcc-aarch64-linux-gnu and build again" >&2; exit 2; }
  rm -rf "$dir" "$out/$name.tar.gz"
  mkdir -p "$dir/lib" "$dir/native"
  cp "$root/vprof" "$dir/vprof"
  cp "$jar" "$dir/lib/vprof.jar"
  cp "$root/README.md" "$dir/README.md"
  cp "$files"/* "$dir/native/"
  # vprof-simgpu finds the double under libcupti's soname next to itself, as in the build folder.
  ln -sf libvprof-cuptisim.so "$dir/native/libcupti.so.13"
  chmod 755 "$dir/vprof" "$dir"/native/*

  jmods_var="VPROF_JMODS_$arch"
  jmods=${!jmods_var:-}
  if [ "$arch" != "$host" ] && [ -z "$jmods" ] && [ "$fetch_jmods" = 1 ]; then
    jmods=$("$root/scripts/debian-trixie.sh" jmods "$arch" "$root/target/tools")
  fi
  if [ "$arch" = "$host" ]; then
    "$jdk/bin/jlink" --add-modules "$modules" --strip-debug --no-header-files --no-man-pages \
        --compress zip-9 --output "$dir/runtime"
    echo "Java runtime made by jlink from $("$jdk/bin/java" -XshowSettings:properties -version 2>&1 \
        | sed -n 's/^ *java.vm.vendor = //p') $("$jdk/bin/java" -version 2>&1 | head -n1)" > "$dir/runtime/VPROF-RUNTIME.txt"
  elif [ -n "$jmods" ]; then
    # --strip-debug would strip native symbols with this machine's objcopy; the cross strip below does it.
    "$jdk/bin/jlink" --module-path "$jmods" --add-modules "$modules" --strip-java-debug-attributes \
        --no-header-files --no-man-pages --compress zip-9 --output "$dir/runtime"
    find "$dir/runtime" -name '*.debuginfo' -delete
    floor=$(find "$dir/runtime" -type f \( -name '*.so' -o -path '*/bin/*' \) -exec "${arch}-linux-gnu-objdump" -T {} + 2>/dev/null \
            | grep -o 'GLIBC_[0-9.]*' | sort -Vu | tail -n1)
    echo "Java runtime made by jlink from the jmods in $jmods; needs ${floor/_/ } or newer, libstdc++, libgcc_s and zlib" \
        > "$dir/runtime/VPROF-RUNTIME.txt"
  else
    echo "release.sh: WARNING: $name has no runtime: jlink needs $arch jmods (set $jmods_var or pass --fetch-jmods); its launcher will use a Java 22+ found on the machine" >&2
  fi
  if [ -d "$dir/runtime" ]; then
    # Symbol tables of the JVM's own libraries are of no use to vprof's users (5 MB for Temurin's).
    s=$(strip_for "$arch")
    if command -v "$s" >/dev/null 2>&1; then
      find "$dir/runtime/lib" "$dir/runtime/bin" -type f \( -name '*.so' -o -perm -u+x \) -exec "$s" --strip-unneeded {} + 2>/dev/null || true
    fi
  fi
  tar -C "$out" -czf "$out/$name.tar.gz" "$name"
  bytes=$(stat -c %s "$out/$name.tar.gz")
  printf 'release.sh: %s.tar.gz  %.1f MiB (unpacked %s)%s\n' "$name" "$(awk -v b="$bytes" 'BEGIN { print b / 1048576 }')" \
      "$(du -sh "$dir" | cut -f1)" "$([ -d "$dir/runtime" ] && echo ", with runtime" || echo ", NO runtime")"
  [ "$bytes" -le "$max_bytes" ] || { echo "release.sh: $name.tar.gz is over 60 MiB" >&2; exit 1; }
done
