#ifndef CMIHIRAKI_PROCESS_H
#define CMIHIRAKI_PROCESS_H

/// Process-wide settings the `mihiraki` program makes for itself and a
/// library must never impose on the program that embeds it.

/// Keeps freed page-sized buffers for reuse instead of returning them to the
/// system after every spread. By default glibc maps each one fresh and
/// unmaps it on free, so every spread pays page faults and zeroing for tens
/// of megabytes. Does nothing outside glibc.
void mh_keep_large_buffers(void);

#endif
