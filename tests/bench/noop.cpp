// bench_noop: a C++ program that does nothing, linked like planlint (libstdc++). scripts/bench
// compares the wall time of linting one plan with the time of starting this.
int main() { return 0; }
