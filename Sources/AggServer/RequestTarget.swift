/// A request target decoded strictly: the path and the query arguments, percent-decoded, with
/// every escape checked. A NUL or other control character, a malformed escape or bytes that are
/// not UTF-8 are refused (400) rather than truncated or replaced, so that the handler sees
/// exactly what was sent or nothing (`/metrics%00.png` is not `/metrics`).
struct RequestTarget: Sendable, Equatable {
    var path: String
    var arguments: [HTTPServerRequest.Argument]

    static func parse(_ target: String, maximumArguments: Int) throws(HTTPRequestRefusal) -> RequestTarget {
        let bytes = Array(target.utf8)
        guard !bytes.contains(0x23) else { throw HTTPRequestRefusal(400, "a fragment (#) in the request target") }
        let query = bytes.firstIndex(of: 0x3F)
        let path = try decode(bytes[..<(query ?? bytes.endIndex)], plusIsSpace: false, what: "the path")
        var arguments: [HTTPServerRequest.Argument] = []
        if let query {
            let pairs = bytes[(query + 1)...].split(separator: 0x26, omittingEmptySubsequences: true)
            guard pairs.count <= maximumArguments else {
                throw HTTPRequestRefusal(
                    414, "the query has \(pairs.count) parameters; at most \(maximumArguments) are accepted")
            }
            for pair in pairs {
                let equals = pair.firstIndex(of: 0x3D)
                let name = try decode(pair[..<(equals ?? pair.endIndex)], plusIsSpace: true, what: "a query parameter")
                let value = try equals.map { (index) throws(HTTPRequestRefusal) in
                    try decode(pair[(index + 1)...], plusIsSpace: true, what: "a query parameter")
                }
                arguments.append(.init(name: name, value: value))
            }
        }
        return RequestTarget(path: path, arguments: arguments)
    }

    private static func decode(_ bytes: ArraySlice<UInt8>, plusIsSpace: Bool, what: String)
        throws(HTTPRequestRefusal) -> String
    {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            var byte = bytes[index]
            if byte == 0x25 {
                guard index + 2 < bytes.endIndex, let high = hexValue(bytes[index + 1]),
                    let low = hexValue(bytes[index + 2])
                else { throw HTTPRequestRefusal(400, "a malformed percent escape in \(what)") }
                byte = high << 4 | low
                index += 3
            } else {
                if byte == 0x2B, plusIsSpace { byte = 0x20 }
                index += 1
            }
            guard byte >= 0x20, byte != 0x7F else {
                throw HTTPRequestRefusal(400, "a NUL or control character in \(what)")
            }
            out.append(byte)
        }
        guard let text = String(validating: out, as: UTF8.self) else {
            throw HTTPRequestRefusal(400, "\(what) is not UTF-8")
        }
        return text
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}
