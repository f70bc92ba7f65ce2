# Fast Downward from PyPI (up-fast-downward) in its own venv, for the
# scripts that compare with it; sourced with `cache` set. Sets fd_python
# and fd_driver (the fast-downward.py driver). Fast Downward is never a
# dependency of the project: it is installed here only.
fd_venv=${FD_VENV:-$cache/venv-fd}
fd_python=$fd_venv/bin/python
find_driver='import importlib.util as u; s = u.find_spec("up_fast_downward"); print(s.submodule_search_locations[0] + "/downward/fast-downward.py")'
if ! "$fd_python" -c "$find_driver" >/dev/null 2>&1; then
  echo "installing up-fast-downward into $fd_venv" >&2
  python3 -m venv "$fd_venv"
  "$fd_venv/bin/pip" install --quiet up-fast-downward >&2
fi
fd_driver=$("$fd_python" -c "$find_driver")
[ -f "$fd_driver" ] || { echo "no Fast Downward driver at $fd_driver" >&2; exit 1; }
