import FuzzDriver

runFuzzer { data, size in fuzz(data, size) }
