pmu_macros::event_set! {
    pub enum Events {
        /// A name that is a keyword
        loop = 0x04,
    }
}

fn main() {}
