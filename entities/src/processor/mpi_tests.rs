//! The MPI engine on its own: packetising, matching in order, both protocols, contexts and
//! sheet-mode sends.

use super::*;

const LIMITS: MpiLimits = MpiLimits::new(100, 40);

/// The packets of some effects, made.
trait Made {
    fn pk(&self) -> Vec<Packet>;
}

impl Made for Effects {
    fn pk(&self) -> Vec<Packet> {
        self.packets.iter().cloned().flatten().collect()
    }
}

fn deliver(to: &mut Mpi, packets: &[Packet], now: SimTime) -> Effects {
    let mut all = Effects::default();
    for p in packets {
        let e = to.on_packet(p, now);
        all.packets.extend(e.packets);
        all.latencies.extend(e.latencies);
    }
    all
}

#[test]
fn eager_message_is_packetised_and_matched_after_posting() {
    let mut a = Mpi::new(0, LIMITS);
    let mut b = Mpi::new(1, LIMITS);
    let (send, e) = a.post_send(Outbound { dst: 1, bytes: 90, tag: 7, context: Context::User }, SimTime(0));
    let sizes: Vec<u32> = e.pk().iter().map(|p| p.bytes).collect();
    assert_eq!(sizes, vec![40, 40, 10]);
    let (recv, _) = b.post_recv(Source::Rank(0), TagSel::Tag(7), Context::User, SimTime(0));
    deliver(&mut b, &e.pk()[..2], SimTime(5));
    assert_eq!(b.done_at(recv), None);
    deliver(&mut b, &e.pk()[2..], SimTime(9));
    assert_eq!(b.done_at(recv), Some(SimTime(9)));
    assert_eq!(b.status(recv), Some(RecvStatus { source: 0, tag: 7, bytes: 90 }));
    for p in &e.pk() {
        a.on_injected(p, SimTime(3));
    }
    assert_eq!(a.done_at(send), Some(SimTime(3)));
}

#[test]
fn unexpected_messages_wait_and_match_in_arrival_order() {
    let mut a = Mpi::new(0, LIMITS);
    let mut b = Mpi::new(1, LIMITS);
    let (_, e1) = a.post_send(Outbound { dst: 1, bytes: 8, tag: 1, context: Context::User }, SimTime(0));
    let (_, e2) = a.post_send(Outbound { dst: 1, bytes: 16, tag: 2, context: Context::User }, SimTime(0));
    deliver(&mut b, &e1.pk(), SimTime(4));
    deliver(&mut b, &e2.pk(), SimTime(5));
    let (r, _) = b.post_recv(Source::Any, TagSel::Any, Context::User, SimTime(6));
    assert_eq!(b.status(r).map(|s| s.tag), Some(1));
    assert_eq!(b.done_at(r), Some(SimTime(6)));
    let (r2, _) = b.post_recv(Source::Rank(0), TagSel::Tag(2), Context::User, SimTime(7));
    assert_eq!(b.status(r2).map(|s| s.bytes), Some(16));
}

#[test]
fn contexts_never_match_each_other() {
    let mut a = Mpi::new(0, LIMITS);
    let mut b = Mpi::new(1, LIMITS);
    let (user, _) = b.post_recv(Source::Any, TagSel::Any, Context::User, SimTime(0));
    let (_, e) = a.post_send(Outbound { dst: 1, bytes: 8, tag: 0, context: Context::Collective }, SimTime(0));
    deliver(&mut b, &e.pk(), SimTime(1));
    assert_eq!(b.done_at(user), None);
    let (coll, _) = b.post_recv(Source::Rank(0), TagSel::Tag(0), Context::Collective, SimTime(2));
    assert_eq!(b.done_at(coll), Some(SimTime(2)));
}

#[test]
fn rendezvous_waits_for_the_receiver() {
    let mut a = Mpi::new(0, LIMITS);
    let mut b = Mpi::new(1, LIMITS);
    let (send, e) = a.post_send(Outbound { dst: 1, bytes: 150, tag: 3, context: Context::User }, SimTime(0));
    assert_eq!(e.pk().len(), 1);
    assert_eq!(e.pk()[0].kind, PacketKind::Rts);
    // RTS arrives before the receive is posted: nothing happens yet.
    assert!(deliver(&mut b, &e.pk(), SimTime(10)).pk().is_empty());
    let (recv, cts) = b.post_recv(Source::Rank(0), TagSel::Tag(3), Context::User, SimTime(20));
    assert_eq!(cts.pk().len(), 1);
    assert_eq!(cts.pk()[0].kind, PacketKind::Cts);
    let data = deliver(&mut a, &cts.pk(), SimTime(30));
    assert_eq!(data.pk().iter().map(|p| u64::from(p.bytes)).sum::<u64>(), 150);
    assert_eq!(a.done_at(send), None, "send completes only when its data has left");
    for p in &data.pk() {
        a.on_injected(p, SimTime(31));
    }
    assert_eq!(a.done_at(send), Some(SimTime(31)));
    deliver(&mut b, &data.pk(), SimTime(40));
    assert_eq!(b.done_at(recv), Some(SimTime(40)));
}

#[test]
fn sheet_mode_sends_one_packet_and_times_receives_by_the_sheet() {
    use crate::netmodel::datasheet::{Estimate, builtin};
    use std::sync::Arc;
    let us = SimTime::from_us;
    let t3d = SheetTiming::new(Arc::new(builtin("cray_t3d").expect("built in")), Estimate::Avg);
    let mut a = Mpi::new(0, LIMITS);
    let mut b = Mpi::new(1, LIMITS).with_sheet(t3d);
    // 5000 B > eager limit and max packet, yet one packet of wire size 0, no rendezvous.
    let (send, e) =
        a.post_whole_send(Outbound { dst: 1, bytes: 5000, tag: 4, context: Context::User }, us(0), us(50));
    assert_eq!(e.pk().len(), 1);
    let p = e.pk()[0];
    assert_eq!((p.kind, p.bytes, p.msg_bytes, p.count, p.injected), (PacketKind::Data, 0, 5000, 1, us(0)));
    assert_eq!(a.done_at(send), Some(us(50)));
    // 5000 B = 625 elements (large fits): recv = 60 + 0.5·625 = 372.5, recvmin = 30 + 0.4·625 =
    // 280; irecv1 = 40, irecv2 = 5 + 0.5·625 = 317.5.
    // Blocking, posted at 100 µs, arriving at 372.5: max(100 + 280, 0 + 372.5) = 380.
    let (blocking, _) =
        b.post_sheet_recv(Source::Rank(0), TagSel::Any, Context::User, us(100), SheetRecvKind::Blocking);
    deliver(&mut b, &e.pk(), SimTime::from_ps(372_500_000));
    assert_eq!(b.done_at(blocking), Some(us(380)));
    // Non-blocking, posted with the send at 0: max(0 + 280, 0 + 40 + 317.5) = 357.5, but the
    // message only arrives at 400 and completes then.
    let (_, e2) =
        a.post_whole_send(Outbound { dst: 1, bytes: 5000, tag: 5, context: Context::User }, us(0), us(50));
    let (nonblocking, _) =
        b.post_sheet_recv(Source::Any, TagSel::Tag(5), Context::User, us(0), SheetRecvKind::NonBlocking);
    deliver(&mut b, &e2.pk(), us(300));
    assert_eq!(b.done_at(nonblocking), Some(SimTime::from_ps(357_500_000)));
    let (_, e3) =
        a.post_whole_send(Outbound { dst: 1, bytes: 5000, tag: 6, context: Context::User }, us(0), us(50));
    let (late, _) =
        b.post_sheet_recv(Source::Any, TagSel::Tag(6), Context::User, us(0), SheetRecvKind::NonBlocking);
    deliver(&mut b, &e3.pk(), us(400));
    assert_eq!(b.done_at(late), Some(us(400)));
    // A timed receive's rule and posting time are let go once it completes.
    assert!(b.sheet.as_ref().is_some_and(|sheet| sheet.recvs.is_empty()));
}

/// A rank holds nothing in flight until its first call or packet, and asking about requests
/// does not change that: a million processors set up and not yet started carry 64 bytes each
/// here, not 240.
#[test]
fn a_rank_that_has_not_started_holds_nothing_in_flight() {
    assert_eq!(std::mem::size_of::<Mpi>(), 64);
    assert_eq!(std::mem::size_of::<InFlight>(), 184);
    let mut a = Mpi::new(0, LIMITS);
    assert_eq!((a.done_at(0), a.status(0), a.is_recv(0)), (None, None, false));
    assert_eq!((a.unexpected_count(), a.unexpected_by_source()), (0, vec![]));
    assert_eq!(a.describe(0), "unknown request");
    a.forget(0);
    assert!(a.in_flight.is_none());
    let (recv, _) = a.post_recv(Source::Any, TagSel::Any, Context::User, SimTime(0));
    assert!(a.in_flight.is_some());
    assert!(a.is_recv(recv));
}

/// Every request a rank has posted and not waited for is held, so a request is packed into
/// 40 bytes; the one size field is a send's size and, once matched, a receive's, and a matched
/// receive keeps its sender and tag where its selection was.
#[test]
fn a_request_is_packed_and_keeps_what_each_kind_needs() {
    assert_eq!(std::mem::size_of::<ReqKind>(), 20);
    assert_eq!(std::mem::size_of::<Req>(), 40);
    // The tables that refer to a request hold four-byte keys.
    assert_eq!(std::mem::size_of::<(ReqKey, Req)>(), 48);
    assert_eq!(std::mem::size_of::<((u32, MsgId), Assembly)>(), 28);
    assert_eq!(std::mem::size_of::<(MsgId, (ReqKey, u32))>(), 12);
    let mut a = Mpi::new(0, LIMITS);
    let mut b = Mpi::new(1, LIMITS);
    let (send, e) = a.post_send(Outbound { dst: 1, bytes: 90, tag: 7, context: Context::User }, SimTime(0));
    assert_eq!(a.describe(send), "send of 90 B to rank 1");
    assert_eq!((a.status(send), a.is_recv(send)), (None, false));
    let (recv, _) = b.post_recv(Source::Any, TagSel::Any, Context::User, SimTime(0));
    assert_eq!((b.status(recv), b.done_at(recv)), (None, None));
    assert_eq!(b.describe(recv), "receive from any rank, any tag");
    deliver(&mut b, &e.pk(), SimTime(9));
    assert_eq!(b.status(recv), Some(RecvStatus { source: 0, tag: 7, bytes: 90 }));
    assert_eq!(b.done_at(recv), Some(SimTime(9)));
    // Once matched, the receive names the message it took rather than what it asked for.
    assert_eq!(b.describe(recv), "receive from rank 0, tag 7");
    // The send is not done until its packets have left; its size is untouched by the receive.
    assert_eq!(a.done_at(send), None);
    assert_eq!(a.describe(send), "send of 90 B to rank 1");
}

/// Request keys count on modulo 2^32: requests posted on both sides of the wrap are told
/// apart and complete as their messages arrive.
#[test]
fn request_keys_wrap_around_without_mixing_requests_up() {
    let mut a = Mpi::new(0, LIMITS);
    let mut b = Mpi::new(1, LIMITS);
    b.next_req = u32::MAX - 1;
    let recvs: Vec<ReqKey> = (0..4)
        .map(|tag| b.post_recv(Source::Rank(0), TagSel::Tag(tag), Context::User, SimTime(0)).0)
        .collect();
    assert_eq!(recvs, [u32::MAX - 1, u32::MAX, 0, 1]);
    for tag in [3, 0, 2, 1] {
        let (_, e) =
            a.post_send(Outbound { dst: 1, bytes: 10 + tag as u64, tag, context: Context::User }, SimTime(0));
        deliver(&mut b, &e.pk(), SimTime(100 + tag as u64));
    }
    for (tag, req) in recvs.iter().enumerate() {
        let status = b.status(*req).unwrap();
        assert_eq!((status.tag, status.bytes), (tag as i32, 10 + tag as u64));
        assert_eq!(b.done_at(*req), Some(SimTime(100 + tag as u64)));
    }
}

#[test]
fn empty_messages_are_one_packet() {
    let mut a = Mpi::new(0, LIMITS);
    let (_, e) = a.post_send(Outbound { dst: 1, bytes: 0, tag: 0, context: Context::User }, SimTime(0));
    assert_eq!(e.pk().len(), 1);
    assert_eq!(e.pk()[0].bytes, 0);
}

/// A pending wait skips looking at its requests again while none has changed: a completion and a
/// dropped request must both say so, and only the rank's look clears it.
#[test]
fn a_completed_or_dropped_request_is_a_change_until_the_rank_looks() {
    let mut a = Mpi::new(0, LIMITS);
    assert!(!a.requests_changed(), "nothing in flight");
    let message = Outbound { dst: 1, bytes: 8, tag: 0, context: Context::User };
    let (req, _) = a.post_whole_send(message, SimTime(0), SimTime(50));
    assert!(a.requests_changed(), "a completion");
    a.requests_seen();
    assert!(!a.requests_changed());
    a.forget(req + 1);
    assert!(!a.requests_changed(), "dropping a request that does not exist changes nothing");
    a.forget(req);
    assert!(a.requests_changed(), "a dropped request");
    a.requests_seen();
    assert!(!a.requests_changed());
}
