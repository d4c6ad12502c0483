// Command pngdiff compares the pixels of PNG files pairwise, as decoded by
// image/png: the bytes may differ (another bit depth, filter or
// compression), the pictures may not.
//
//	pngdiff OLD.png NEW.png [OLD2.png NEW2.png ...]
//
// It prints one line a pair and exits 1 if any pair differs.
package main
