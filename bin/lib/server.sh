# shellcheck shell=bash
# Shared by bin/strata-server and bin/strata-dev: the server's jar, built when stale, and its JVM flags.
# Source it after lib/common.sh; it defines functions and runs nothing else.

# Prints the server module's jar (its name carries the version), or nothing before the first build.
strata_server_jar() {
  local candidate
  for candidate in "$STRATA_ROOT"/server/target/strata-server-*.jar; do
    case "$candidate" in
      *-sources.jar|*-tests.jar|*-javadoc.jar) ;;
      *) if [[ -f "$candidate" ]]; then echo "$candidate"; fi ;;
    esac
  done
}

# Builds the server (and the engine and API it uses) when a source changed since its jar; prints the jar.
strata_server_jar_built() {
  local target="$STRATA_ROOT/server/target" jar
  jar="$(strata_server_jar)"
  strata_build_if_stale server "${jar:-$target/strata-server.jar}" storage-engine proto client
  jar="$(strata_server_jar)"
  [[ -n "$jar" && -d "$target/lib" ]] \
    || strata_die "no strata-server jar and lib/ in $target; build with: mvn -DskipTests install -pl server -am"
  echo "$jar"
}

# Prints the JVM flags the server needs on the java at $1: native access for the codecs' JNI and,
# from JDK 23 on, permission for the Netty that Ratis shades to use sun.misc.Unsafe without warnings.
strata_server_jvm_flags() {
  local flags="--enable-native-access=ALL-UNNAMED" major
  major="$(strata_java_major "$1")"
  if (( ${major:-0} >= 23 )); then
    flags+=" --sun-misc-unsafe-memory-access=allow"
  fi
  echo "$flags"
}
