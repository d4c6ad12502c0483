// Command cputime runs a command with its standard output thrown away and
// prints the CPU time it took (user and system, in milliseconds, from the
// kernel's accounting to the microsecond) and its peak resident memory
// (in KiB), where /usr/bin/time rounds the time to 10 ms:
//
//	cputime COMMAND [ARG...]   prints   user_ms sys_ms maxrss_kib
//
// Linux only.
package main
