pmu_macros::event_set! {
    pub enum Nothing {}
}

fn main() {}
