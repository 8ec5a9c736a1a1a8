// The WebAssembly build starts no process: emscripten's libc declares posix_spawnp but has none.
// planlint runs git through it (diff/git.cpp: `planlint diff git:REV`, and the folder search's
// `git ls-files`); here every program is missing (ENOENT), as git is where it is not installed,
// and the callers say so or pass over it as they do there.
#include <spawn.h>

#include <cerrno>

extern "C" int posix_spawnp(pid_t*, const char*, const posix_spawn_file_actions_t*, const posix_spawnattr_t*,
                            char* const[], char* const[]) {
  return ENOENT;
}
