function grader_serve_()
% The grader's call server: one request line in on stdin, one framed reply line out.
% Runs inside the sandbox next to the student's files. Trusted code, but it shares the
% process with the student: the parent believes no time, crash or size this reports;
% it measures those from outside. A reply frame is a line starting with char(30).
  more off;
  page_screen_output(false);
  while true
    req = fgetl(stdin);
    if ~ischar(req)
      break;
    elseif isempty(req)
      continue;   % every request is followed by an empty line: fgetl reads one character ahead
    end
    % regexp, never strtok or strsplit: the grader's code calls only built-ins, which no student file replaces
    head = regexp(req, '^(\S+) (\S+) (\S+) ?(.*)$', 'tokens', 'once');
    [nonce, op, trip, rest] = head{:};
    if strcmp(op, 'load')    % load TRIP KEY NAMES...: the key signs the tripwire's reports
      keyed = regexp(rest, '^(\S+) ?(.*)$', 'tokens', 'once');
      grader_trip_('install', regexp(trip, ',', 'split'), keyed{1});
      reply = grader_load_(regexp(keyed{2}, ' ', 'split'));
      req = '';                % the key now lives only in the tripwire, out of the student's reach
      head = {};
      rest = '';
      keyed = {};
    else
      % calls NAME WATCH NOUTS {{args of case 1}, {args of case 2}, ...}: one reply frame per case, in order
      name = trip;
      parts = regexp(rest, '^(\S+) (\S+) (.*)$', 'tokens', 'once');
      [watch, nouts, rest] = parts{:};
      cases = eval(rest);
      for k = 1:numel(cases)
        tag = sprintf('%s:%d', nonce, k - 1);
        reply = grader_call_(name, nouts(k) - '0', watch(k) == '1', cases{k}, tag);
        fprintf(stdout, '\n%s%s %s\n', char(30), tag, reply);
        fflush(stdout);
      end
      continue;
    end
    fprintf(stdout, '\n%s%s %s\n', char(30), nonce, reply);
    fflush(stdout);
  end
end
