#include <iostream>

#include "cli/cli.hpp"

int main(int argc, char** argv) {
  return planlint::cli::run(argc, argv, std::cout, std::cerr, planlint::cli::detect_environment());
}
