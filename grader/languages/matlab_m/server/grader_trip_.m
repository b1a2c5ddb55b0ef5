function out = grader_trip_(op, arg)
% The runtime ban tripwire. 'install' writes a recorder for each banned function Octave
% has onto the front of the path; a recorder notes a call made from the student's own
% files (never from Octave's library, which may use sum itself) and calls the original
% through a handle taken before the recorders shadowed it.
  persistent watching found student_dir originals
  out = '';
  if isempty(watching)
    watching = false;
    found = {};
  end
  switch op
    case 'install'
      student_dir = [pwd() filesep()];
      dir = fullfile(tempdir(), sprintf('grader_tripwire_%d', getpid()));
      mkdir(dir);
      originals = struct();
      for k = 1:numel(arg)
        name = arg{k};
        kind = exist(name);
        if any(kind == [2 3 5])
          fid = fopen(fullfile(dir, [name '.m']), 'w');
          fprintf(fid, 'function varargout = %s(varargin)\n  original = grader_trip_(''hit'', ''%s'');\n', name, name);
          if kind == 5     % a built-in: builtin() reaches it past the recorder
            fprintf(fid, '  [varargout{1:max(nargout, 1)}] = builtin(''%s'', varargin{:});\nend\n', name);
          else             % a library .m file: a handle taken now still points at it
            originals.(name) = str2func(name);
            fprintf(fid, '  [varargout{1:max(nargout, 1)}] = original(varargin{:});\nend\n');
          end
          fclose(fid);
        end
      end
      warning('off', 'Octave:shadowed-function');
      addpath(dir);
    case 'start'
      watching = arg;
      found = {};
    case 'stop'
      out = grader_join_(found);
      watching = false;
      found = {};
    case 'hit'
      if isfield(originals, arg)
        out = originals.(arg);
      end
      if watching
        stack = dbstack('-completenames');
        for k = 3:numel(stack)
          if ~isempty(stack(k).file)
            if strncmp(stack(k).file, student_dir, numel(student_dir))
              found{end + 1} = sprintf('{"b":"%s","f":"%s","l":%d}', grader_hex_(arg), ...
                                       grader_hex_(stack(k).file(numel(student_dir) + 1:end)), stack(k).line);
            end
            break;
          end
        end
      end
  end
end
