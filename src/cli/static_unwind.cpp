// Linked into the fully static planlint only (CMakeLists.txt, PLANLINT_STATIC_RUNTIME), with
// -Wl,--wrap=__register_frame_info -Wl,--wrap=__deregister_frame_info -Wl,--eh-frame-hdr.
//
// Why: in a -static link, crtbeginT.o registers the program's unwind tables with libgcc at
// start, and libgcc's unwinder then searches the registered tables first: at the first C++
// exception it sorts every FDE of the program, 23 M instructions (about 8 ms here). planlint
// throws on `--version` and `--help` (CLI11), on a TOML syntax error (toml++) and on a unit
// typo (the X3 quantity grammar's expectation points), so those runs took 7× as long as the
// lint of a valid plan. With the registration a no-op, libgcc finds the tables as it does for
// every dynamically linked program: through the PT_GNU_EH_FRAME binary-search table that
// --eh-frame-hdr writes, found with _dl_find_object / dl_iterate_phdr, which static glibc
// provides. tests/unit/test_binary.cpp runs the built binary through each of those exceptions.
extern "C" {

void __wrap___register_frame_info(const void* /*eh_frame*/, void* /*object*/) {}

// crtbeginT.o deregisters at exit what it registered; there is nothing to remove. Returning
// null is what libgcc returns for a table it does not hold.
void* __wrap___deregister_frame_info(const void* /*eh_frame*/) { return nullptr; }

}
