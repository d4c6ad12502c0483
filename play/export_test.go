package play

// CleanupEvery is how often Cleanup deletes, for the external tests.
const CleanupEvery = cleanupEvery
