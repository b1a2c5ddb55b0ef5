function [out, sig] = grader_trip_(op, arg, key)
% The runtime ban tripwire. 'install' writes a recorder for each banned function Octave
% has onto the front of the path; a recorder notes a call made by the student's code and
% calls the original through a handle taken before the recorders shadowed it.
% Whose call it is: the innermost caller with a file, unless that file is Octave's or the
% grader's own (on the path before any student code ran) and names the function itself
% (median calling sum). Any other file is the student's, wherever it lies (a file the code
% wrote into /tmp); a library file that never names the function only passes on what the
% student handed it (nthargout(1, 'sum', x)), so the caller behind it is looked at.
% The student's code shares this process, so: 'stop' signs its report with the key the parent
% sent at load, which lives only here (a reply frame the student forged on Octave's stdout,
% with no hits, once passed); 'install', 'start' and 'stop' obey only the grader's own frames
% and 'hit' only a recorder (anyone else is reported as tampering, in the signed report);
% mlock keeps this state through `clear all` or `clear functions`.
% Only built-ins are called (no fullfile, tempdir, strsplit...): a student's file can replace an
% .m function for this code too, and the files named like the built-ins used here are not loaded.
  persistent watching found signed student_dir originals trusted named busy secret tampered server recorders
  out = '';
  sig = '';
  if isempty(watching)
    watching = false;
    found = {};
    signed = '';
    named = {{}, {}};
    busy = false;
    tampered = false;
    server = regexprep(mfilename('fullpath'), '[^/]*$', '');
  end
  stack = dbstack('-completenames');
  if ~strcmp(op, 'hit') && ~grader_trip_ours_(stack, server)
    tampered = true;     % the student's code called the tripwire's controls
    return;
  end
  switch op
    case 'install'
      if ~isempty(secret)
        tampered = true;
        return;
      end
      mlock();
      secret = key;
      student_dir = [pwd() filesep()];
      trusted = grader_trip_trusted_(student_dir);
      recorders = sprintf('%s%sgrader_tripwire_%d', getenv('TMPDIR'), filesep(), getpid());
      if isempty(getenv('TMPDIR'))
        recorders = sprintf('%s%sgrader_tripwire_%d', P_tmpdir(), filesep(), getpid());
      end
      __mkdir__(recorders);
      originals = struct();
      for k = 1:numel(arg)
        name = arg{k};
        kind = exist(name);
        if any(kind == [2 3 5])
          fid = fopen([recorders filesep() name '.m'], 'w');
          fprintf(fid, 'function varargout = %s(varargin)\n  original = grader_trip_(''hit'', ''%s'');\n', name, name);
          if kind == 5     % a built-in: builtin() reaches it past the recorder
            fprintf(fid, '  [varargout{1:nargout + (nargout == 0)}] = builtin(''%s'', varargin{:});\nend\n', name);
          else             % a library .m file: a handle taken now still points at it
            originals.(name) = str2func(name);
            fprintf(fid, '  [varargout{1:nargout + (nargout == 0)}] = original(varargin{:});\nend\n');
          end
          fclose(fid);
        end
      end
      warning('off', 'Octave:shadowed-function');
      addpath(recorders);
      recorders = [recorders filesep()];
    case 'start'
      watching = arg;
      found = {};
      signed = '';
    case 'stop'      % the hits, and their signature for this case (arg: the case's nonce)
      out = grader_join_(found);
      sig = sprintf('%d:%s', tampered, hash('sha256', sprintf('%s|%s|%d|%s', secret, arg, tampered, signed)));
      watching = false;
      found = {};
      signed = '';
      tampered = false;
    case 'hit'
      if numel(stack) < 2 || ~strncmp(stack(2).file, recorders, numel(recorders))
        tampered = true;   % not a recorder: someone after the original's handle
        return;
      end
      if isfield(originals, arg)
        out = originals.(arg);
      end
      if watching && ~busy     % busy: the tripwire's own calls (reading a library file) are nobody's
        busy = true;
        [file, line, named] = grader_trip_whose_(arg, stack, trusted, student_dir, named);
        busy = false;
        if ~isempty(file)
          b = grader_hex_(arg);
          f = grader_hex_(file);
          found{end + 1} = sprintf('{"b":"%s","f":"%s","l":%d}', b, f, line);
          signed = [signed sprintf('%s:%s:%d;', b, f, line)];
        end
      end
  end
end

function yes = grader_trip_ours_(stack, server)
% Called by the grader's own code only: every frame but this one is a file of the call server.
  yes = true;
  for k = 2:numel(stack)
    if ~strncmp(stack(k).file, server, numel(server))
      yes = false;
      return;
    end
  end
end

function trusted = grader_trip_trusted_(student_dir)
% Octave's and the grader's folders: the path before any student code ran, but the student's folder.
  entries = regexp(path(), pathsep(), 'split');
  trusted = {};
  for k = 1:numel(entries)
    entry = [entries{k} filesep()];
    if ~isempty(entries{k}) && ~strcmp(entries{k}, '.') && ~strncmp(student_dir, entry, numel(entry))
      trusted{end + 1} = entry;
    end
  end
end

function [file, line, named] = grader_trip_whose_(name, stack, trusted, student_dir, named)
% The place in the student's code behind a call of `name`, or '' when the call is Octave's or the grader's.
  file = '';
  line = 0;
  for k = 3:numel(stack)    % 1: this tripwire, 2: the recorder
    f = stack(k).file;
    if isempty(f)
      continue;
    end
    if grader_trip_under_(f, trusted)
      [own, named] = grader_trip_names_(f, name, named);
      if own
        return;
      end
      continue;             % passed on: whoever called this library code made the call
    end
    file = f;
    line = stack(k).line;
    for j = k:numel(stack)  % the student's own file behind generated code, when there is one
      if strncmp(stack(j).file, student_dir, numel(student_dir))
        file = stack(j).file(numel(student_dir) + 1:end);
        line = stack(j).line;
        return;
      end
    end
    return;
  end
end

function yes = grader_trip_under_(file, trusted)
  yes = false;
  for k = 1:numel(trusted)
    if strncmp(file, trusted{k}, numel(trusted{k}))
      yes = true;
      return;
    end
  end
end

function [yes, named] = grader_trip_names_(file, name, named)
% Does a library file's code (comments aside) name `name`? Cached: one read per file and name.
  key = [name ':' file];
  at = find(strcmp(named{1}, key), 1);
  if ~isempty(at)
    yes = named{2}{at};
    return;
  end
  text = '';
  fid = fopen(file, 'r');
  if fid >= 0
    text = fread(fid, Inf, '*char')';
    fclose(fid);
  end
  code = regexprep(text, '(?m)^[ \t]*[%#][^\n]*', '');   % Octave's . matches a newline too
  yes = ~isempty(regexp(code, ['(?<![\w.])' name '(?!\w)'], 'once'));
  named{1}{end + 1} = key;
  named{2}{end + 1} = yes;
end
