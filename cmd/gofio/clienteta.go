package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gofio/gofio/netio"
	"github.com/gofio/gofio/output"
)

// clientETA is fio's client's status line (§7.4 and §8.1 of the
// client/server reference): every ETA interval it asks each running
// server for its status (SEND_ETA) and, once every server of the round
// has answered or was skipped, prints the sum of the replies as the
// status line. A server still owing the previous answer is skipped.
type clientETA struct {
	round    *etaRound
	nextTag  uint64
	prevLen  int
	pctShown bool
}

// etaRound is one SEND_ETA round.
type etaRound struct {
	pending int
	sum     netio.ETA
	// tags of the requests of this round: a reply with another tag is
	// dropped, as fio's client drops an ETA it did not ask for.
	tags map[uint64]bool
}

// request starts a round over servers and returns the line to print
// now, if every server was skipped.
func (c *clientETA) request(servers []*remoteServer) (line string, ok bool) {
	r := &etaRound{pending: len(servers), tags: map[uint64]bool{}}
	c.round = r
	skipped := 0
	for _, srv := range servers {
		if !srv.running || srv.etaTag != 0 || srv.ended {
			skipped++
			continue
		}
		c.nextTag++
		tag := c.nextTag
		if err := srv.c.SendETA(tag); err != nil {
			skipped++
			continue
		}
		srv.etaTag = tag
		r.tags[tag] = true
	}
	for range skipped {
		if line, ok := c.done(); ok {
			return line, true
		}
	}
	return "", false
}

// done counts one server of the round as answered; with the last one it
// returns the line.
func (c *clientETA) done() (string, bool) {
	r := c.round
	if r == nil {
		return "", false
	}
	r.pending--
	if r.pending > 0 {
		return "", false
	}
	c.round = nil
	return c.line(&r.sum), true
}

// reply handles srv's ETA reply; it returns the line when it completes
// the round.
func (c *clientETA) reply(srv *remoteServer, m netio.Msg) (string, bool) {
	if m.Tag != srv.etaTag {
		return "", false
	}
	srv.etaTag = 0
	r := c.round
	if r == nil || !r.tags[m.Tag] {
		return "", false
	}
	delete(r.tags, m.Tag)
	e, err := netio.DecodeETA(m.Payload)
	if err == nil {
		sumETA(&r.sum, &e)
	}
	return c.done()
}

// gone counts a server that ended with its ETA reply still due.
func (c *clientETA) gone(srv *remoteServer) (string, bool) {
	if srv.etaTag == 0 {
		return "", false
	}
	tag := srv.etaTag
	srv.etaTag = 0
	if r := c.round; r != nil && r.tags[tag] {
		delete(r.tags, tag)
		return c.done()
	}
	return "", false
}

// sumETA adds e to sum as fio's client does: counts, rates and times
// added, the largest ETA, the last run string.
func sumETA(sum, e *netio.ETA) {
	sum.Running += e.Running
	sum.Ramp += e.Ramp
	sum.Pending += e.Pending
	sum.SettingUp += e.SettingUp
	for d := range 3 {
		sum.RateMin[d] += e.RateMin[d]
		sum.RateTarget[d] += e.RateTarget[d]
		sum.RateKiB[d] += e.RateKiB[d]
		sum.IOPSMin[d] += e.IOPSMin[d]
		sum.IOPSTarget[d] += e.IOPSTarget[d]
		sum.IOPS[d] += e.IOPS[d]
	}
	sum.ElapsedSec += e.ElapsedSec
	sum.ETASec = max(sum.ETASec, e.ETASec)
	sum.FilesOpen += e.FilesOpen
	sum.Threads += e.Threads
	sum.RunStr = e.RunStr
}

// line renders the summed status as fio's client prints it: the summed
// status has no units (is_pow2 and unit_base stay 0), so rates print as
// plain powers of 1000 ("r=11.3G").
func (c *clientETA) line(e *netio.ETA) string {
	var b strings.Builder
	b.WriteString("Jobs: " + strconv.Itoa(int(e.Running)) + " (f=" + strconv.Itoa(int(e.FilesOpen)) + ")")
	if e.Running > 0 && e.ETASec != netio.ETAUnknown {
		b.WriteString(": [" + e.RunStr + "][")
		if (e.ETASec == 0 && !c.pctShown) || e.Ramp == e.Running || e.ElapsedSec+e.ETASec == 0 {
			b.WriteString("-.-%")
		} else {
			pct := float64(e.ElapsedSec) / float64(e.ElapsedSec+e.ETASec) * 100
			b.WriteString(strconv.FormatFloat(pct, 'f', 1, 64) + "%")
			c.pctShown = true
		}
		b.WriteString("]")
		var bw, iops []string
		for d, name := range []string{"r=", "w=", "t="} {
			if e.RateKiB[d] == 0 && e.IOPS[d] == 0 {
				continue
			}
			bw = append(bw, name+output.Num2Str(e.RateKiB[d], 4, 1024, false, output.UnitNone))
			iops = append(iops, name+output.Num2Str(uint64(e.IOPS[d]), 4, 1, false, output.UnitNone))
		}
		if len(bw) > 0 {
			b.WriteString("[" + strings.Join(bw, ",") + "][" + strings.Join(iops, ",") + " IOPS]")
		}
		b.WriteString("[eta " + clientETAString(e.ETASec) + "]")
		n := b.Len()
		if n < c.prevLen {
			b.WriteString(strings.Repeat(" ", c.prevLen-n))
		}
		c.prevLen = n
	}
	b.WriteByte('\r')
	return b.String()
}

// clientETAString spells an ETA as fio does: "00m:05s", "02h:00m:07s",
// "01d:00h:00m:01s".
func clientETAString(x uint64) string {
	s, m, h, d := x%60, x/60%60, x/3600%24, x/86400
	switch {
	case d > 0:
		return fmt.Sprintf("%02dd:%02dh:%02dm:%02ds", d, h, m, s)
	case h > 0:
		return fmt.Sprintf("%02dh:%02dm:%02ds", h, m, s)
	}
	return fmt.Sprintf("%02dm:%02ds", m, s)
}
