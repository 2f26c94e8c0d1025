import AggTestKit
import Testing

@testable import AggTransport

@Suite("WebSocket client: throughput over loopback", .timeLimit(.minutes(5)))
struct WebSocketThroughputTests {
    @Test("200,000 ticker-sized text messages arrive complete and in order; the rate is printed")
    func throughput() async throws {
        let count = 200_000
        let ticker =
            #"{\"type\":\"ticker\",\"code\":\"KRW-BTC\",\"trade_price\":32287000,\"timestamp\":1676965262177}"#
        let server = try WebSocketLoopbackServer(
            script: WS.script(
                #"{"expect":"text","data":"go"}"#, #"{"send":"binary","data":"\#(ticker)","repeat":\#(count)}"#,
                #"{"send":"text","data":"end"}"#))
        let connection = try await WebSocketClient().connect(to: server.url())
        connection.send(text: "go")
        let start = WS.now()
        var received = 0
        var bytes = 0
        var last: WebSocketMessage?
        for try await message in connection.messages {
            if message == .text("end") {
                last = message
                break
            }
            received += 1
            bytes += message.bytes.count
        }
        let seconds = WS.now() - start
        connection.close()
        #expect(received == count)
        #expect(bytes == count * 83)
        #expect(last == .text("end"))
        print("websocket loopback: \(count) messages in \(seconds) s = \(Int(Double(count) / seconds)) messages/s")
    }
}
