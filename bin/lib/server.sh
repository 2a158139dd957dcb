# shellcheck shell=bash
# Shared by bin/strata-server and bin/strata-dev: the server's jar, built when stale, and its JVM flags.
# Source it after lib/common.sh; it defines functions and runs nothing else.

# Builds the server (and the engine and API it uses) when a source changed since its jar; prints the jar.
strata_server_jar_built() {
  strata_module_jar_built server storage-engine proto checkpoint-transfer
}

# Prints the server's garbage-collector flags. G1's default pause goal of 200 ms let it grow the
# young generation to hundreds of MiB on a lightly loaded node, and each young collection then
# paused the node for 100-440 ms on two shared cores, close to the 500 ms election timeout and
# the whole of a put's tail latency. With a 20 ms goal the pauses measured a fifth of that for
# about 1% of a core more collecting (docs/benchmarks.md, "Collector pauses"). ZGC paused under
# a millisecond but stalled allocations under 16 KiB values in a 1 GiB heap.
# A flag given later (STRATA_SERVER_JAVA_OPTS) overrides it.
strata_server_gc_flags() {
  echo "-XX:MaxGCPauseMillis=20"
}

# Prints the JVM flags the server needs on the java at $1: native access for the codecs' JNI and,
# from JDK 23 on, permission for the Netty that Ratis shades to use sun.misc.Unsafe without warnings.
# Multi-release jars are read as plain jars, which makes zstd-jni use its JNI binding on every JDK:
# the binding it ships for JDK 22+ (java.lang.foreign) links its native functions on first use, a
# quarter of a second and 0.4 s of CPU per JVM, more than a tenth of a restart's CPU on two cores,
# and compresses no faster (docs/benchmarks.md, "What a restart's CPU goes to"). The other
# multi-release jars on the class path hold only module descriptors and Jackson's optional
# number parsers.
strata_server_jvm_flags() {
  local flags="--enable-native-access=ALL-UNNAMED -Djdk.util.jar.enableMultiRelease=false" major
  major="$(strata_java_major "$1")"
  if (( ${major:-0} >= 23 )); then
    flags+=" --sun-misc-unsafe-memory-access=allow"
  fi
  echo "$flags"
}

# Sets STRATA_SERVER_CDS_FLAGS to the JVM flags of the server's class-data sharing archive, kept
# beside the jar ($2) and used by the java at $1: mapping the classes a node loaded before instead
# of loading them again takes seconds off a node's start. When the archive is there, the flags map
# it. Its name carries a fingerprint of the java, the flags above and STRATA_SERVER_JAVA_OPTS: an
# archive serves only a JVM that reads the jars as the one that wrote it did (with multi-release
# jars read otherwise, a class mapped from the archive can name one the jar no longer offers).
# When it is missing, one node (the one that takes the lock on fd 9, which stays with the JVM
# through exec) writes the classes it loaded to a file of its own when it stops gracefully
# (-XX:ArchiveClassesAtExit); a later start, once no such writer is alive, checks that file
# (checksums and the jars it was made from) and renames it to the archive. The others start
# without. An archive is never written by a JVM that goes on running afterwards: JDK 25 can crash
# in a lambda lookup after a live VM.cds dynamic_dump. A build makes the archive stale, and a
# stale archive is removed here so that it is written again. Call it in the shell that then execs
# java; expand the array as ${STRATA_SERVER_CDS_FLAGS[@]+"${STRATA_SERVER_CDS_FLAGS[@]}"}, as it
# may be empty.
strata_server_cds() {
  local java="$1" jar="$2" target archive classpath partial key file
  target="$(dirname "$jar")"
  key="$(printf '%s|%s|%s' "$(readlink -f "$java")" "$(strata_server_jvm_flags "$java")" "${STRATA_SERVER_JAVA_OPTS:-}" | cksum)"
  archive="$target/strata-server-${key%% *}.jsa"
  classpath="$jar:$target/lib/*"
  rm -f "$target/strata-server.jsa" "$target"/strata-server.jsa.*.partial # unfingerprinted, from before
  for file in "$target"/strata-server-*.jsa; do
    if [[ -e "$file" && -n "$(find "$jar" "$target/lib" -newer "$file" -print -quit)" ]]; then
      rm -f "$file"
    fi
  done
  STRATA_SERVER_CDS_FLAGS=()
  if ! command -v flock >/dev/null || ! { exec 9>>"$archive.lock" && flock -n 9; }; then
    # A writer is alive (or locks are unavailable): map a finished archive if there is one.
    if [[ -f "$archive" ]]; then
      STRATA_SERVER_CDS_FLAGS=("-XX:SharedArchiveFile=$archive" -Xlog:cds=off,cds+dynamic=off)
    fi
    return 0
  fi
  # The lock is ours, so no writer is alive: every partial archive is finished or abandoned.
  for partial in "$archive".*.partial; do
    [[ -f "$partial" ]] || continue
    if [[ ! -f "$archive" ]] && "$java" -Xshare:on -XX:+VerifySharedSpaces "-XX:SharedArchiveFile=$partial" \
        -Xlog:cds=off,cds+dynamic=off -cp "$classpath" -version >/dev/null 2>&1; then
      mv -f "$partial" "$archive"
    else
      rm -f "$partial"
    fi
  done
  if [[ -f "$archive" ]]; then
    exec 9>&-
    STRATA_SERVER_CDS_FLAGS=("-XX:SharedArchiveFile=$archive" -Xlog:cds=off,cds+dynamic=off)
  else
    STRATA_SERVER_CDS_FLAGS=("-XX:ArchiveClassesAtExit=$archive.$BASHPID.partial" -Xlog:cds=off,cds+dynamic=off)
  fi
}
