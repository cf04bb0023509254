package netio

import "fmt"

// Op is a command opcode.
type Op uint16

// fio 3.33's opcodes.
const (
	OpQuit        Op = 1
	OpExit        Op = 2
	OpJob         Op = 3
	OpJobLine     Op = 4
	OpText        Op = 5
	OpTS          Op = 6
	OpGS          Op = 7
	OpSendETA     Op = 8
	OpETA         Op = 9
	OpProbe       Op = 10
	OpStart       Op = 11
	OpStop        Op = 12
	OpDU          Op = 13
	OpServerStart Op = 14
	OpAddJob      Op = 15
	OpRun         Op = 16
	OpIOLog       Op = 17
	OpUpdateJob   Op = 18
	OpLoadFile    Op = 19
	OpVTrigger    Op = 20
	OpSendFile    Op = 21
	OpJobOpt      Op = 22
)

var opNames = [...]string{"", "QUIT", "EXIT", "JOB", "JOBLINE", "TEXT", "TS", "GS", "SEND_ETA", "ETA", "PROBE", "START", "STOP", "DISK_UTIL", "SERVER_START", "ADD_JOB", "RUN", "IOLOG", "UPDATE_JOB", "LOAD_FILE", "VTRIGGER", "SENDFILE", "JOB_OPT"}

// String is fio's debug name of the opcode ("UNKNOWN/n" past the table).
func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return fmt.Sprintf("UNKNOWN/%d", uint16(o))
}
