import Foundation
import Testing

@testable import AggServices

@Suite("Writing standard output")
struct OutputSinkTests {
    @Test("a failed write is kept, later writes are dropped, and finish reports it")
    func fullDisk() throws {
        let descriptor = open("/dev/full", O_WRONLY)
        try #require(descriptor >= 0)
        let sink = FileDescriptorSink(descriptor: descriptor)
        #expect(sink.failure == nil)
        sink.write("one line\n")
        #expect(sink.failure == WriteFailure(reason: "No space left on device"))
        sink.write("another\n")
        #expect(sink.finish() == WriteFailure(reason: "No space left on device"))
    }

    @Test("bytes written as bytes fail and are kept the same way")
    func fullDiskBytes() throws {
        let descriptor = open("/dev/full", O_WRONLY)
        try #require(descriptor >= 0)
        let sink = FileDescriptorSink(descriptor: descriptor)
        sink.write(utf8: Array("{}\n".utf8))
        #expect(sink.failure == WriteFailure(reason: "No space left on device"))
        #expect(sink.finish() == WriteFailure(reason: "No space left on device"))
    }

    @Test("a close that fails is a failure too")
    func failedClose() {
        #expect(FileDescriptorSink(descriptor: -1).finish() == WriteFailure(reason: "Bad file descriptor"))
    }

    @Test("a file that takes everything: no failure, and the bytes are there")
    func ordinaryFile() throws {
        let path = NSTemporaryDirectory() + "agg-sink-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(descriptor >= 0)
        let sink = FileDescriptorSink(descriptor: descriptor)
        sink.write("비트코인 ")
        sink.write(String(repeating: "x", count: 100_000))
        sink.write(utf8: Array(" 김치 ".utf8) + Array(repeating: UInt8(ascii: "y"), count: 70_000))
        #expect(sink.finish() == nil)
        #expect(
            try String(contentsOfFile: path, encoding: .utf8)
                == "비트코인 " + String(repeating: "x", count: 100_000) + " 김치 " + String(repeating: "y", count: 70_000))
    }
}
