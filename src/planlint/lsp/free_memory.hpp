#pragma once
/// What the language server's allocator keeps: a long-lived process whose documents come and
/// go gives their memory back to the system when they close, rather than holding the most it
/// ever needed (glibc's malloc otherwise keeps a large document's memory in its arenas).

namespace planlint::lsp {

/// Blocks of 1 MiB and more (a document's text, its line index, a message) are mapped apart and
/// unmapped when freed, and a heap's free top past 1 MiB is given back. glibc otherwise raises
/// both thresholds to the largest block freed, up to 32 MiB, and keeps that much free at the top
/// of each thread's heap: 21 MB stayed resident after a 6 MB document was closed. Called once,
/// before the server starts.
void bound_free_memory();

/// Gives the allocator's free memory back to the system. glibc keeps what a thread frees in
/// that thread's arena: the lint thread's hundreds of megabytes for a large document stayed
/// resident after it closed (584 MB for a 5 MB plan).
void release_free_memory();

}  // namespace planlint::lsp
