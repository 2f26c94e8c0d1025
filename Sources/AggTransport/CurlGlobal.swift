import CCurl

/// Whether `curl_global_init` succeeded.
///
/// libcurl must be initialised once per process before any other call. Swift initialises a
/// global constant lazily and exactly once, even when several threads race to read it, which
/// gives that guarantee without any mutable state.
let curlIsInitialised: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK
