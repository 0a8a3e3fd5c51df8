fn main() {
    println!("devserver: not built yet");
}
