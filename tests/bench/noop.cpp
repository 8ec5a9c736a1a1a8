// bench_noop: a trivial C++ program, linked dynamically against libstdc++ as a small C++ tool
// is. scripts/bench compares the wall time of linting one plan with the time of starting this.
#include <string>

int main(int argc, char** argv) {
  const std::string name = argc > 0 ? argv[0] : "";  // a call into the shared libstdc++
  return name.empty() ? 1 : 0;
}
