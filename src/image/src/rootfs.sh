#!/usr/bin/env bash
# src/image/src/rootfs.sh DIST ROOTFS: the container image's file system, from the release distribution unpacked in DIST
# and this build machine's JDK and Linux: a Java runtime made with jlink (/opt/java), bash and the few commands
# bin/jwd uses, the shared libraries all of them need (found with ldd), and the distribution in /opt/jwd. The image
# is built FROM scratch with it (no registry is reached: the base is this), by Jib, without a Docker daemon.
set -euo pipefail
DIST=$1
ROOTFS=$2
JAVA_HOME=${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}
rm -rf "$ROOTFS"
mkdir -p "$ROOTFS"/{opt,etc/jwd,var/lib/jwd,tmp,usr/bin,bin}

# The Java runtime: the modules of Java SE and the few JDK ones a server wants (TLS over EC, JFR, jcmd).
"$JAVA_HOME/bin/jlink" --add-modules java.se,jdk.unsupported,jdk.crypto.ec,jdk.crypto.cryptoki,jdk.zipfs,jdk.management,jdk.management.jfr,jdk.jfr,jdk.jcmd,jdk.naming.dns,jdk.localedata \
  --strip-debug --no-man-pages --no-header-files --generate-cds-archive --output "$ROOTFS/opt/java"

# bin/jwd's commands (it runs under bash), each where Debian has it.
for tool in bash env dirname readlink sed realpath mkdir nproc cksum cut mv rm cat tr head ls; do
  path=$(command -v "$tool" || true)
  [[ -n $path && -x $path ]] || { echo "rootfs: $tool not found" >&2; exit 1; }
  cp -L "$path" "$ROOTFS/usr/bin/$tool"
done
cp -L "$(command -v bash)" "$ROOTFS/bin/bash"
cp -L "$(command -v bash)" "$ROOTFS/bin/sh"

# Their shared libraries and the JVM's, and the dynamic loader; host lookups load libnss_* at run time.
copy_lib() {
  local lib=$1
  [[ -f $ROOTFS$lib ]] && return
  mkdir -p "$ROOTFS$(dirname "$lib")"
  cp -L "$lib" "$ROOTFS$lib"
}
# (a server draws nothing: the runtime's graphics libraries are left out, and with them X11's and the fonts';
# ldd's lines: "libc.so.6 => /lib/.../libc.so.6 (0x...)" and "/lib64/ld-linux-x86-64.so.2 (0x...)"; the
# runtime's own libraries resolve inside ROOTFS and are there already)
while read -r lib; do copy_lib "$lib"; done < <(
  find "$ROOTFS/usr/bin" "$ROOTFS/opt/java" -type f \( -perm -u+x -o -name '*.so' \) \
       -not -name 'libawt_xawt.so' -not -name 'libsplashscreen.so' -not -name 'libjawt.so' \
       -not -name 'libfontmanager.so' -not -name 'liblcms.so' -not -name 'libjavajpeg.so' -print0 \
    | xargs -0 ldd 2>/dev/null \
    | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\/.*ld-linux/ { print $1 }' \
    | grep -v "^$ROOTFS" | sort -u)
for lib in /lib/x86_64-linux-gnu/libnss_files.so.2 /lib/x86_64-linux-gnu/libnss_dns.so.2 \
           /lib/x86_64-linux-gnu/libresolv.so.2; do
  [[ -f $lib ]] && copy_lib "$lib"
done

# Who runs it (uid 10001, no login), how host names are looked up.
printf 'root:x:0:0:root:/root:/usr/sbin/nologin\njwd:x:10001:10001:jwd:/var/lib/jwd:/usr/sbin/nologin\n' \
  > "$ROOTFS/etc/passwd"
printf 'root:x:0:\njwd:x:10001:\n' > "$ROOTFS/etc/group"
printf 'hosts: files dns\n' > "$ROOTFS/etc/nsswitch.conf"
printf '127.0.0.1 localhost\n::1 localhost\n' > "$ROOTFS/etc/hosts"

# The distribution; its work directory is JWD_WORK=/var/lib/jwd.
cp -a "$DIST" "$ROOTFS/opt/jwd"
rm -rf "$ROOTFS/opt/jwd/work"
echo "rootfs: $(du -sh "$ROOTFS" | cut -f1) in $ROOTFS" >&2
