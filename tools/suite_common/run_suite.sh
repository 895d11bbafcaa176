# Sourced by tools/numba_suite/run.sh and tools/cupy_suite/run.sh: runs pytest over a suite's
# tests folder with a harness's shim and plugin. The caller sets:
#   here (its folder, holding shim/, pytest.ini, scope.txt, known_failures.txt), root (the
#   repository), tests (the suite's tests folder), prefix (numba-suite|cupy-suite: the plugin's
#   option prefix and the report's default folder), report, xfail (1: mark known failures),
#   timeout (seconds a test may run), and default_paths (what runs with no arguments);
#   optionally scope_file and known_file (default: $here/scope.txt and
#   $here/known_failures.txt), for a second suite run by one harness (tools/cupy_suite/run_scipy.sh).
# Then: run_suite "$@".
run_suite() {
  local python=${PYTHON:-python3}
  mkdir -p "$(dirname "$report")"
  # Absolute paths: the run happens in the suite's folder.
  report=$(cd "$(dirname "$report")" && pwd)/$(basename "$report")
  if [[ "$python" == */* ]]; then
    python=$(cd "$(dirname "$python")" && pwd)/$(basename "$python")
  fi
  export PYTHONPATH="$here/shim:$here:$root/tools:$root/python${PYTHONPATH:+:$PYTHONPATH}"
  local plugin=${prefix//-/_}_plugin
  local args=(-p "$plugin" -p no:cacheprovider -c "$here/pytest.ini" --rootdir="$tests" --confcutdir="$tests"
              --continue-on-collection-errors -q -rfE --tb=short
              "--$prefix-tests=$tests" "--$prefix-scope=${scope_file:-$here/scope.txt}" "--$prefix-report=$report"
              "--$prefix-timeout=$timeout")
  if [[ "$xfail" == 1 ]]; then
    args+=("--$prefix-known=${known_file:-$here/known_failures.txt}")
  fi
  local jobs=${JOBS:-2}
  if [[ "$jobs" != 0 ]] && "$python" -c 'import xdist' 2>/dev/null; then
    args+=(-n "$jobs")
  fi
  # Options alone (-q, -x, -k EXPR) keep the default paths; a test path given replaces them.
  local a has_path=0
  for a in "$@"; do
    if [[ "$a" != -* && -e "$tests/${a%%::*}" ]]; then has_path=1; fi
  done
  if [[ $has_path -eq 0 ]]; then
    set -- "$@" "${default_paths[@]}"
  fi
  cd "$tests"
  exec "$python" -m pytest "${args[@]}" "$@"
}
