import Foundation

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> Int32) -> Int32

/// Hands the program to libFuzzer, which calls `body` with each input and
/// takes libFuzzer's flags and corpus folders from the command line.
public func runFuzzer(_ body: @convention(c) (UnsafePointer<UInt8>, Int) -> Int32) -> Never {
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, body))
}
