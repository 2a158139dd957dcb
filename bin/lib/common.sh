# shellcheck shell=bash
# Shared by the launchers in bin/: find a JDK and build what a launcher needs.
# Source it; it defines functions and STRATA_ROOT, and runs nothing else.

STRATA_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
STRATA_MIN_JAVA=21

strata_die() {
  echo "$(basename "$0"): $*" >&2
  exit 1
}

# Prints the major version of the java at $1 (8 for "1.8", 21 for "21"), from its JDK's release
# file, else by running it; nothing if neither tells.
strata_java_major() {
  local spec="" java release line
  # Reading the release file spares starting a JVM, about 0.1 s of every command; bash's own
  # string and pattern matching spare a process per step (each takes milliseconds, and a launcher
  # asks for several JDKs' versions).
  java="$(readlink -f "$1")"
  release="${java%/*}"
  release="${release%/*}/release"
  if [[ -r "$release" ]]; then
    while IFS= read -r line; do
      if [[ "$line" =~ ^JAVA_VERSION=\"([^\"]*)\" ]]; then
        spec="${BASH_REMATCH[1]}"
        break
      fi
    done < "$release"
  fi
  if [[ -z "$spec" ]]; then
    spec="$("$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p')"
  fi
  spec="${spec#1.}"
  echo "${spec%%.*}"
}

# Prints the path of a java >= STRATA_MIN_JAVA: JAVA_HOME's, else the one on PATH, else the
# newest under /usr/lib/jvm. Exits with an error naming what it tried when there is none.
strata_find_java() {
  local candidate major best="" best_major=0
  if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/java" ]]; then
    major="$(strata_java_major "$JAVA_HOME/bin/java")"
    if (( ${major:-0} >= STRATA_MIN_JAVA )); then
      echo "$JAVA_HOME/bin/java"
      return
    fi
  fi
  if candidate="$(command -v java)"; then
    major="$(strata_java_major "$candidate")"
    if (( ${major:-0} >= STRATA_MIN_JAVA )); then
      echo "$candidate"
      return
    fi
  fi
  for candidate in /usr/lib/jvm/*/bin/java; do
    [[ -x "$candidate" ]] || continue
    major="$(strata_java_major "$candidate")"
    if (( ${major:-0} > best_major )); then
      best="$candidate"
      best_major="$major"
    fi
  done
  if (( best_major >= STRATA_MIN_JAVA )); then
    echo "$best"
    return
  fi
  strata_die "no JDK >= $STRATA_MIN_JAVA found (tried JAVA_HOME=${JAVA_HOME:-unset}, java on PATH, /usr/lib/jvm/*); install one or set JAVA_HOME"
}

# Builds module $1 (and the modules it depends on) with Maven when $2, the file it must
# produce, is missing or older than a source or pom of $1 or of a module listed after it.
# Maven picks its own JDK >= 21 through the toolchains plugin in the root pom.
strata_build_if_stale() {
  local module="$1" product="$2"
  shift 2
  local dirs=("$STRATA_ROOT/pom.xml")
  local m
  for m in "$module" "$@"; do
    dirs+=("$STRATA_ROOT/$m/pom.xml" "$STRATA_ROOT/$m/src")
  done
  if [[ -e "$product" ]] && [[ -z "$(find "${dirs[@]}" -newer "$product" -type f -print -quit 2>/dev/null)" ]]; then
    return
  fi
  command -v mvn >/dev/null || strata_die "$product is missing or stale and mvn is not on PATH to build it"
  echo "Building $module (sources changed since the last build)..." >&2
  # Maven's output is kept out of the way unless the build fails.
  local log
  log="$(mktemp)"
  if ! (cd "$STRATA_ROOT" && mvn -B -q -DskipTests install -pl "$module" -am) >"$log" 2>&1; then
    cat "$log" >&2
    rm -f "$log"
    strata_die "the build of $module failed"
  fi
  rm -f "$log"
  # Maven leaves an up-to-date jar untouched; mark it current so the next run does not rebuild.
  if [[ -e "$product" ]]; then
    touch "$product"
  fi
}

# Prints module $1's newest jar, target/strata-$1-VERSION.jar (not its sources, tests or
# javadoc), or nothing before the first build.
strata_module_jar() {
  local candidate newest=""
  for candidate in "$STRATA_ROOT/$1/target/strata-$1"-*.jar; do
    case "$candidate" in
      *-sources.jar|*-tests.jar|*-javadoc.jar) ;;
      *) if [[ -f "$candidate" && ( -z "$newest" || "$candidate" -nt "$newest" ) ]]; then newest="$candidate"; fi ;;
    esac
  done
  echo "$newest"
}

# Builds module $1 when a source of it or of the modules listed after it changed since its jar;
# prints the jar. The module copies its runtime libraries to target/lib when it is packaged.
strata_module_jar_built() {
  local module="$1" target="$STRATA_ROOT/$1/target" jar
  shift
  jar="$(strata_module_jar "$module")"
  strata_build_if_stale "$module" "${jar:-$target/strata-$module.jar}" "$@"
  jar="$(strata_module_jar "$module")"
  [[ -n "$jar" && -d "$target/lib" ]] \
    || strata_die "no strata-$module jar and lib/ in $target; build with: mvn -DskipTests install -pl $module -am"
  echo "$jar"
}
